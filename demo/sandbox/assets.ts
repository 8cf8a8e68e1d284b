// What delivery URLs serve: a generated SVG per thumbnail (honouring ?width=), a WebVTT file per text track with real
// cues, a short real MP4 for every MP4 rendition (byte ranges honoured, as video elements ask for them), and for HLS
// renditions a VOD manifest of one real MPEG-TS segment of the same clip.
import type { Media, MediaRendition, TextTrack, Thumbnail } from '../../worker/upstream/v2-types.ts';
import { errorResponse } from './http.ts';
import { hashString } from './prng.ts';
import { SAMPLE_AUDIO_MP4, SAMPLE_SECONDS, SAMPLE_VIDEO_MP4, SAMPLE_VIDEO_TS, sampleBytes } from './sample-media.ts';
import type { Store } from './store.ts';

const CACHEABLE = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' };

export function serveAsset(store: Store, url: URL, range: string | null = null): Response {
  const path = url.pathname;
  let match = /^\/cdn\/thumbs\/([A-Za-z0-9]+)\.svg$/.exec(path);
  if (match) return thumbnailImage(store, match[1]!, url.searchParams.get('width'));
  match = /^\/cdn\/tracks\/([A-Za-z0-9]+)\.vtt$/.exec(path);
  if (match) return webVtt(store, match[1]!);
  match = /^\/cdn\/videos\/([A-Za-z0-9]+)\/([A-Za-z0-9]+)\.mp4$/.exec(path) ?? /^\/cdn\/manifests\/([A-Za-z0-9]+)\.m3u8$/.exec(path);
  if (match) return mediaBytes(store, match[1]!, match[2], range);
  match = /^\/cdn\/segments\/([A-Za-z0-9]+)\.ts$/.exec(path);
  if (match) {
    if (!store.find<Media>('media', match[1]!)) return errorResponse(404, 'not_found', 'No such media.');
    return byteRange(sampleBytes(SAMPLE_VIDEO_TS), 'video/mp2t', range);
  }
  return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
}

function thumbnailImage(store: Store, id: string, widthParam: string | null): Response {
  const found = store.find<Thumbnail>('thumbnail', id);
  if (!found) return errorResponse(404, 'not_found', `Thumbnail '${id}' was not found.`);
  let width = found.doc.width;
  if (widthParam !== null) {
    if (!/^\d+$/.test(widthParam) || Number(widthParam) < 16 || Number(widthParam) > 3840) {
      return errorResponse(400, 'invalid_width', `width must be an integer from 16 to 3840, got '${widthParam}'.`);
    }
    width = Number(widthParam);
  }
  const height = Math.round((width * found.doc.height) / found.doc.width);
  const mediaId = found.doc.relationships.media[0]?.id ?? '';
  const media = store.get<Media>('media', found.site, mediaId);
  const title = media?.metadata.title ?? 'Untitled';
  const hue = hashString(found.doc.id) % 360;
  const duration = media?.duration ? `${Math.floor(media.duration / 60)}:${String(media.duration % 60).padStart(2, '0')}` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1920 1080" role="img" aria-label="${escapeXml(title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 60% 35%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 18%)"/></linearGradient></defs>
<rect width="1920" height="1080" fill="url(#g)"/>
<circle cx="960" cy="470" r="120" fill="rgba(255,255,255,0.18)"/><path d="M920 400 L1030 470 L920 540 Z" fill="#fff"/>
<text x="96" y="900" font-family="system-ui, sans-serif" font-size="72" font-weight="600" fill="#fff">${escapeXml(title)}</text>
<text x="1824" y="1000" text-anchor="end" font-family="system-ui, sans-serif" font-size="48" fill="rgba(255,255,255,0.85)">${duration}</text>
</svg>`;
  return new Response(svg, { headers: { 'content-type': 'image/svg+xml; charset=utf-8', ...CACHEABLE } });
}

const PHRASES: Record<string, readonly string[]> = {
  en: ['Welcome back to the channel.', 'Today we are taking a closer look.', 'Let us start with the basics.', 'Here is what most people miss.', 'Watch this part carefully.', 'That is the key idea.', 'Thanks for watching.'],
  es: ['Bienvenidos de nuevo al canal.', 'Hoy lo vemos más de cerca.', 'Empecemos por lo básico.', 'Esto es lo que casi nadie ve.', 'Mirad esta parte con atención.', 'Esa es la idea clave.', 'Gracias por vernos.'],
  fr: ['Bienvenue sur la chaîne.', "Aujourd'hui, on regarde de plus près.", 'Commençons par les bases.', 'Voici ce que beaucoup oublient.', 'Regardez bien ce passage.', "C'est l'idée essentielle.", 'Merci de nous avoir suivis.'],
  de: ['Willkommen zurück auf dem Kanal.', 'Heute schauen wir genauer hin.', 'Fangen wir mit den Grundlagen an.', 'Das übersehen die meisten.', 'Achtet auf diesen Teil.', 'Das ist der Kerngedanke.', 'Danke fürs Zuschauen.'],
  ja: ['チャンネルへようこそ。', '今日は詳しく見ていきます。', 'まず基本から始めましょう。', '多くの人が見落とす点です。', 'ここをよく見てください。', 'これが大事なポイントです。', 'ご覧いただきありがとうございました。'],
  pt: ['Bem-vindos de volta ao canal.', 'Hoje vamos ver com mais detalhe.', 'Vamos começar pelo básico.', 'Isto é o que quase todos perdem.', 'Prestem atenção a esta parte.', 'Essa é a ideia principal.', 'Obrigado por assistirem.'],
};

function webVtt(store: Store, id: string): Response {
  const found = store.find<TextTrack>('text_track', id);
  if (!found) return errorResponse(404, 'not_found', `Text track '${id}' was not found.`);
  const media = store.get<Media>('media', found.site, found.doc.media_id);
  const duration = Math.max(media?.duration ?? 60, 12);
  const { kind, srclang } = found.doc.metadata;
  const lines = ['WEBVTT', `NOTE ${kind} (${srclang}) for "${media?.metadata.title ?? 'media'}", generated by the reelgate sandbox`, ''];
  if (kind === 'chapters') {
    const chapters = Math.min(6, Math.max(2, Math.floor(duration / 60)));
    for (let i = 0; i < chapters; i++) {
      lines.push(`chapter-${i + 1}`, `${vttTime((duration * i) / chapters)} --> ${vttTime((duration * (i + 1)) / chapters)}`, `Chapter ${i + 1}`, '');
    }
  } else {
    const phrases = PHRASES[srclang.slice(0, 2)] ?? PHRASES.en!;
    const step = 6;
    const count = Math.min(Math.floor(duration / step), 300);
    for (let i = 0; i < count; i++) {
      const text = i === 0 && media ? media.metadata.title : phrases[i % phrases.length]!;
      lines.push(String(i + 1), `${vttTime(i * step)} --> ${vttTime(i * step + step - 0.5)}`, kind === 'captions' && i % 5 === 4 ? `[music] ${text}` : text, '');
    }
  }
  return new Response(lines.join('\n'), { headers: { 'content-type': 'text/vtt; charset=utf-8', ...CACHEABLE } });
}

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
}

function mediaBytes(store: Store, mediaId: string, renditionId: string | undefined, range: string | null): Response {
  const found = renditionId ? store.find<MediaRendition>('media_rendition', renditionId) : null;
  const media = store.find<Media>('media', mediaId);
  if (!media || (renditionId !== undefined && (!found || found.doc.media_id !== mediaId))) {
    return errorResponse(404, 'not_found', 'No such rendition.');
  }
  if (!found) return hlsManifest(mediaId);
  const audio = found.doc.mime_type.startsWith('audio/');
  return byteRange(sampleBytes(audio ? SAMPLE_AUDIO_MP4 : SAMPLE_VIDEO_MP4), audio ? 'audio/mp4' : 'video/mp4', range);
}

/** A VOD playlist of one segment: what a native HLS player needs to play the clip. */
function hlsManifest(mediaId: string): Response {
  const lines = [
    '#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SAMPLE_SECONDS}`, '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD', `#EXTINF:${SAMPLE_SECONDS.toFixed(1)},`, `../segments/${mediaId}.ts`, '#EXT-X-ENDLIST', '',
  ];
  return new Response(lines.join('\n'), { headers: { 'content-type': 'application/vnd.apple.mpegurl', ...CACHEABLE } });
}

/** A whole body, or the one `bytes=a-b` range asked for (206), or 416 for a range outside it. */
function byteRange(bytes: Uint8Array, contentType: string, range: string | null): Response {
  const headers = { 'content-type': contentType, 'accept-ranges': 'bytes', ...CACHEABLE };
  const match = range === null ? null : /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!match || (match[1] === '' && match[2] === '')) {
    return new Response(bytes, { headers: { ...headers, 'content-length': String(bytes.length) } });
  }
  const size = bytes.length;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2])); // suffix range: the last N bytes
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  }
  return new Response(bytes.slice(start, end + 1), {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) },
  });
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
