// What the delivery host serves (the layout is delivery-paths.ts): a generated SVG per thumbnail and poster (honouring
// ?width=), a WebVTT file per text track with real cues, a short real MP4 for every MP4 rendition (byte ranges honoured,
// as video elements ask for them), and for every hosted video with ready MP4 renditions an HLS folder: a master
// playlist of up to two variants (and a subtitles group when the media has captions or subtitles), each variant a VOD
// playlist of a real MPEG-TS segment per 5 s of the media's duration (the same clip each time, up to an hour of it). A playlist asked for with a signed URL
// names its files with their own signatures (`sign`, delivery.ts). Test fixtures stay under /cdn/: for the bench,
// `/cdn/generated/<MiB>.bin` streams a large deterministic file generated on the fly (never held in memory); for the
// suites only, `/cdn/test-hls/` serves hostile HLS playlists that no media of the seed names (see testHls), and
// `/cdn/hostile/` an attacker's folder (hostile-folder.ts).
import type { Thumbnail } from '../../worker/contract/v2-types.ts';
import type { Media, MediaRendition, TextTrack } from './records.ts';
import { errorResponse } from './http.ts';
import { HOSTILE_FOLDER, serveHostileFile } from './hostile-folder.ts';
import { posterOf, thumbnailMediaId } from './poster-choice.ts';
import { hashString } from './prng.ts';
import { SAMPLE_AUDIO_MP4, SAMPLE_SECONDS, SAMPLE_VIDEO_MP4, SAMPLE_VIDEO_TS } from './sample-media.ts';
import type { Store } from './store.ts';

const CACHEABLE = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' };

/**
 * The query a URI written into a playlist (or storyboard) carries, given the absolute path it names: its signature when
 * the playlist was asked for signed, else nothing.
 */
export type Signer = (path: string) => Promise<string>;
export const UNSIGNED: Signer = () => Promise.resolve('');

/** The test fixtures under /cdn/: the hostile folder, the test HLS folders, the bench's generated files. */
export function serveFixture(url: URL, range: string | null = null): Response {
  const path = url.pathname;
  // A test fixture: the folder of an attacker's external media (hostile-folder.ts).
  if (path.startsWith(HOSTILE_FOLDER)) return serveHostileFile(path);
  if (path.startsWith('/cdn/test-hls/')) return testHls(path);
  const match = /^\/cdn\/generated\/([0-9]{1,4})\.bin$/.exec(path);
  if (match && Number(match[1]) >= 1 && Number(match[1]) <= 2048) {
    const pace = url.searchParams.get('pace');
    if (pace !== null && !(/^\d{1,5}$/.test(pace) && Number(pace) >= 1)) {
      return errorResponse(400, 'invalid_pace', `pace must be a whole number of MiB/s from 1 to 99999, got '${pace}'.`);
    }
    return generatedFile(Number(match[1]) * MIB, range, pace === null ? null : Number(pace));
  }
  return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
}

/** `/videos/<media_id>-<rendition_id>.mp4` (`.m4a` for audio): the sample clip, byte ranges honoured. */
export function serveVideo(store: Store, url: URL, range: string | null): Response {
  const match = /^\/videos\/([A-Za-z0-9]+)-([A-Za-z0-9]+)\.(mp4|m4a)$/.exec(url.pathname);
  if (!match) return errorResponse(404, 'not_found', `Nothing is served at ${url.pathname}.`);
  return mediaBytes(store, url.pathname, match[1]!, match[2]!, range);
}

/** `/manifests/<media_id>.m3u8` and the files of its folder `/manifests/<media_id>/`. */
export function serveManifest(store: Store, url: URL, range: string | null, sign: Signer = UNSIGNED): Promise<Response> | Response {
  const match = /^\/manifests\/([A-Za-z0-9]+)(?:\.m3u8|\/(.+))$/.exec(url.pathname);
  if (!match) return errorResponse(404, 'not_found', `Nothing is served at ${url.pathname}.`);
  return hlsFile(store, match[1]!, match[2] ?? null, range, sign);
}

/** `/tracks/<track_id>.vtt`. */
export function serveTrack(store: Store, url: URL): Response {
  const match = /^\/tracks\/([A-Za-z0-9]+)\.vtt$/.exec(url.pathname);
  if (!match) return errorResponse(404, 'not_found', `Nothing is served at ${url.pathname}.`);
  return webVtt(store, match[1]!);
}

/**
 * The Delivery API's images of a media: `/v2/media/<media_id>/poster.jpg` (the thumbnail chosen as its poster,
 * poster-choice.ts, 720 wide unless `width` says otherwise) and `/v2/media/<media_id>/thumbnails/<thumbnail_id>.jpg`
 * (1920 wide unless `width` says otherwise). `params`: the request's parameters (a signed request's are its token's).
 */
export function serveMediaImage(store: Store, url: URL, params: URLSearchParams): Response {
  const match = /^\/v2\/media\/([A-Za-z0-9]+)\/(?:poster\.jpg|thumbnails\/([A-Za-z0-9]+)\.jpg)$/.exec(url.pathname);
  const media = match ? store.find<Media>('media', match[1]!) : null;
  if (!match || !media) return errorResponse(404, 'not_found', `No media image at ${url.pathname}.`);
  if (match[2] !== undefined) {
    const thumbnail = store.find<Thumbnail>('thumbnail', match[2]);
    if (!thumbnail || thumbnailMediaId(thumbnail.doc) !== media.doc.id) {
      return errorResponse(404, 'not_found', `Thumbnail '${match[2]}' of media '${media.doc.id}' was not found.`);
    }
    return thumbnailImage(store, thumbnail.doc.id, params.get('width'));
  }
  const poster = posterOf(store, media.site, media.doc.id);
  if (!poster) return errorResponse(404, 'not_found', `Media '${media.doc.id}' has no poster yet.`);
  return thumbnailImage(store, poster.id, params.get('width') ?? '720');
}

/**
 * Thumbnails are 16:9 frames, 1920 wide unless a width is asked for: a gradient, the title and the duration, and no
 * play glyph. A frame is a picture of the video, not a control: a poster under a player's own play button (the
 * browser's, centred by its own rules) would otherwise show two, apart.
 */
const FRAME = { width: 1920, height: 1080 };

function thumbnailImage(store: Store, id: string, widthParam: string | null): Response {
  const found = store.find<Thumbnail>('thumbnail', id);
  if (!found) return errorResponse(404, 'not_found', `Thumbnail '${id}' was not found.`);
  let width = FRAME.width;
  if (widthParam !== null) {
    if (!/^\d+$/.test(widthParam) || Number(widthParam) < 16 || Number(widthParam) > 3840) {
      return errorResponse(400, 'invalid_width', `width must be an integer from 16 to 3840, got '${widthParam}'.`);
    }
    width = Number(widthParam);
  }
  const height = Math.round((width * FRAME.height) / FRAME.width);
  const mediaId = thumbnailMediaId(found.doc);
  const media = store.get<Media>('media', found.site, mediaId);
  const title = media?.metadata.title ?? 'Untitled';
  const hue = hashString(found.doc.id) % 360;
  const duration = media?.duration ? `${Math.floor(media.duration / 60)}:${String(media.duration % 60).padStart(2, '0')}` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1920 1080" role="img" aria-label="${escapeXml(title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 60% 35%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 18%)"/></linearGradient></defs>
<rect width="1920" height="1080" fill="url(#g)"/>
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

export function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
}

/** A rendition's file, at the path its record names (an audio rendition's `.m4a`, any other's `.mp4`). */
function mediaBytes(store: Store, path: string, mediaId: string, renditionId: string, range: string | null): Response {
  const found = store.find<MediaRendition>('media_rendition', renditionId);
  if (!store.find<Media>('media', mediaId) || !found || found.doc.media_id !== mediaId || found.doc.delivery_url !== path) {
    return errorResponse(404, 'not_found', 'No such rendition.');
  }
  const audio = found.doc.mime_type.startsWith('audio/');
  return byteRange(audio ? SAMPLE_AUDIO_MP4 : SAMPLE_VIDEO_MP4, audio ? 'audio/mp4' : 'video/mp4', range,
    found.doc.last_modified);
}

const HLS_MIME = 'application/vnd.apple.mpegurl';
/** The variants HLS is packaged in, as an encoding ladder names them. */
export const HLS_VARIANTS = [
  { name: '360p', bandwidth: 800_000, resolution: '640x360', width: 640, height: 360 },
  { name: '720p', bandwidth: 2_800_000, resolution: '1280x720', width: 1280, height: 720 },
] as const;
export type HlsVariant = (typeof HLS_VARIANTS)[number];

/**
 * The HLS a media is delivered with, packaged from its ready MP4 renditions (as the platform packages HLS from its MP4
 * ladder): every variant some rendition is at least as wide as (the first one always), and when its files last changed.
 * No HLS rendition record is needed: the Management API need not list one for the manifest to be served. A media with
 * no MP4 video rendition (audio) whose HLS rendition record is still listed keeps the manifest that record names, of
 * every variant. Null for anything else (external media, media delivered as MP4 files only, media not processed).
 */
export function hlsLadder(store: Store, site: string, media: Media): { variants: HlsVariant[]; modified: string } | null {
  if (media.hosting_type === 'external' || media.hls === false) return null;
  const ready = store.list<MediaRendition>('media_rendition', site, media.id).filter((r) => r.status === 'ready');
  const mp4 = ready.filter((r) => r.mime_type === 'video/mp4' && r.delivery_url.startsWith('/videos/'));
  if (mp4.length) {
    const widest = Math.max(...mp4.map((r) => r.width ?? 0));
    const variants = HLS_VARIANTS.filter((v, i) => i === 0 || v.width <= widest);
    return { variants, modified: mp4.map((r) => r.last_modified).sort().at(-1)! };
  }
  const listed = ready.find((r) => r.mime_type === HLS_MIME && r.delivery_url === `/manifests/${media.id}.m3u8`);
  return listed ? { variants: [...HLS_VARIANTS], modified: listed.last_modified } : null;
}
/**
 * The codecs of every variant, as RFC 8216 §4.3.4.2 asks a master to name them (MSE players such as hls.js build their
 * buffers from them): the clip's own, H.264 Constrained Baseline level 1.2 (its SPS reads 42 c0 0c) and AAC-LC.
 */
export const HLS_CODECS = 'avc1.42c00c,mp4a.40.2';
/** The most segments a variant has: an hour of the clip. Longer media play their first hour. */
export const HLS_MAX_SEGMENTS = 720;

/**
 * Segments per variant: one per clip length of the media's duration, at least 3 and at most HLS_MAX_SEGMENTS, so a
 * player buffers a few at a time (and switches variant, and meets an expired URL, mid-play) as it does on the platform.
 */
export function hlsSegmentCount(duration: number | null | undefined): number {
  return Math.min(HLS_MAX_SEGMENTS, Math.max(3, Math.ceil((duration ?? 0) / SAMPLE_SECONDS)));
}

/**
 * A playlist answer. Its URIs (the lines that are not tags, and `URI="…"` attributes) are relative to `path`, the
 * playlist's own; each is given the query `sign` makes for the path it names (nothing when the playlist was not asked
 * for signed).
 */
async function playlist(lines: string[], path: string, sign: Signer): Promise<Response> {
  const signed = async (uri: string): Promise<string> => uri + await sign(new URL(uri, `http://delivery${path}`).pathname);
  const out = await Promise.all(lines.map(async (line) => {
    if (line === '') return line;
    if (!line.startsWith('#')) return signed(line);
    const attribute = /URI="([^"]*)"/.exec(line);
    return attribute ? line.replace(attribute[0], `URI="${await signed(attribute[1]!)}"`) : line;
  }));
  return new Response([...out, ''].join('\n'), { headers: { 'content-type': HLS_MIME, ...CACHEABLE } });
}

/**
 * A file of a media's HLS folder: the master `/manifests/<id>.m3u8` (`file` null), and under `/manifests/<id>/`
 * `<variant>/index.m3u8`, `<variant>/seg-<n>.ts`, `subs/<track>.m3u8|.vtt`.
 */
async function hlsFile(store: Store, mediaId: string, file: string | null, range: string | null, sign: Signer): Promise<Response> {
  const media = store.find<Media>('media', mediaId);
  const hls = media ? hlsLadder(store, media.site, media.doc) : null;
  if (!media || !hls) return errorResponse(404, 'not_found', 'This media is not delivered with HLS.');
  const tracks = store.list<TextTrack>('text_track', media.site, mediaId)
    .filter((t) => t.status === 'ready' && (t.metadata.kind === 'subtitles' || t.metadata.kind === 'captions'));
  const duration = Math.max(media.doc.duration ?? 0, SAMPLE_SECONDS);
  const folder = `/manifests/${mediaId}/`;
  if (file === null) {
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
    for (const t of tracks) {
      lines.push(`#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="${t.metadata.label.replace(/"/g, '')}",` +
        `LANGUAGE="${t.metadata.srclang}",DEFAULT=NO,AUTOSELECT=YES,URI="${mediaId}/subs/${t.id}.m3u8"`);
    }
    for (const v of hls.variants) {
      lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${v.bandwidth},RESOLUTION=${v.resolution},CODECS="${HLS_CODECS}"` +
        `${tracks.length ? ',SUBTITLES="subs"' : ''}`,
        `${mediaId}/${v.name}/index.m3u8`);
    }
    return playlist(lines, `/manifests/${mediaId}.m3u8`, sign);
  }
  let match = /^([0-9a-z]+)\/(index\.m3u8|seg-([0-9]+)\.ts)$/.exec(file);
  if (match && hls.variants.some((v) => v.name === match![1])) {
    const count = hlsSegmentCount(media.doc.duration);
    if (match[2] === 'index.m3u8') {
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SAMPLE_SECONDS}`, '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-PLAYLIST-TYPE:VOD'];
      for (let i = 0; i < count; i++) {
        // Every segment is the same clip, its timestamps starting again.
        if (i > 0) lines.push('#EXT-X-DISCONTINUITY');
        lines.push(`#EXTINF:${SAMPLE_SECONDS.toFixed(1)},`, `seg-${i}.ts`);
      }
      lines.push('#EXT-X-ENDLIST');
      return playlist(lines, `${folder}${file}`, sign);
    }
    if (Number(match[3]) < count && String(Number(match[3])) === match[3]) {
      return byteRange(SAMPLE_VIDEO_TS, 'video/mp2t', range, hls.modified);
    }
  }
  match = /^subs\/([A-Za-z0-9]+)\.(m3u8|vtt)$/.exec(file);
  const track = match ? tracks.find((t) => t.id === match![1]) : undefined;
  if (match && track) {
    if (match[2] === 'vtt') return webVtt(store, track.id);
    return playlist(['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${Math.ceil(duration)}`,
      '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD', `#EXTINF:${duration.toFixed(1)},`, `${track.id}.vtt`,
      '#EXT-X-ENDLIST'], `${folder}${file}`, sign);
  }
  return errorResponse(404, 'not_found', `No file '${file}' in this media's HLS folder.`);
}

/**
 * Test-only HLS folders, for the worker's playlist rewriter. No seeded media names them; a suite
 * creates an `external` media whose `source_url` is one of them.
 * - `/cdn/test-hls/echo/<base64url>/<name>.m3u8`: the bytes the base64url segment spells, as a playlist, whatever
 *   the name (so a variant's playlist in the same folder is the same text); anything else in the folder is 404.
 * - `/cdn/test-hls/generated/<KiB>/sized.m3u8` and `.../unsized.m3u8`: a VOD media playlist of at least that many
 *   KiB (1 to 65536), made as it is read, with a Content-Length or without one (chunked).
 */
function testHls(path: string): Response {
  const headers = { 'content-type': HLS_MIME, 'cache-control': 'no-store' };
  let match = /^\/cdn\/test-hls\/echo\/([A-Za-z0-9_-]*)\/[A-Za-z0-9._-]+\.m3u8$/.exec(path);
  if (match) {
    let bytes: Uint8Array;
    try {
      bytes = Uint8Array.from(atob(match[1]!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    } catch {
      return errorResponse(400, 'invalid_playlist', 'The echo segment is not base64url.');
    }
    return new Response(bytes, { headers });
  }
  match = /^\/cdn\/test-hls\/generated\/([0-9]{1,5})\/(sized|unsized)\.m3u8$/.exec(path);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > 65536) {
    return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
  }
  const head = new TextEncoder().encode('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n');
  const line = (n: number) => `#EXTINF:6.0,\nseg-${String(n).padStart(8, '0')}.ts\n`;
  const lineBytes = line(0).length;
  const count = Math.ceil(Math.max(0, Number(match[1]) * 1024 - head.length) / lineBytes);
  const length = head.length + count * lineBytes;
  const linesPerChunk = Math.floor(BLOCK / lineBytes);
  let next = -1;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < 0) {
        controller.enqueue(head);
        next = 0;
        return;
      }
      if (next >= count) {
        controller.close();
        return;
      }
      let text = '';
      for (const end = Math.min(count, next + linesPerChunk); next < end; next++) text += line(next);
      controller.enqueue(new TextEncoder().encode(text));
    },
  });
  if (match[2] === 'unsized') return new Response(source, { headers });
  const fixed = new FixedLengthStream(length);
  void source.pipeTo(fixed.writable).catch(() => {
    // The reader went away.
  });
  return new Response(fixed.readable, { headers: { ...headers, 'content-length': String(length) } });
}

const MIB = 1024 * 1024;
const BLOCK = 64 * 1024;

/** Byte `i` of a generated file: a pattern a reader can check anywhere in it. */
export function generatedByte(i: number): number {
  return (i * 31 + (i >>> 16)) & 0xff;
}

/**
 * The 64 KiB block `k` of every generated file. Within a block `i >>> 16` is `k` and `i * 31` only depends on the offset
 * (mod 256), so there are only 256 different blocks: each is made once (16 MiB at most) and copied out after that. A
 * byte-by-byte loop for every chunk made the sandbox's CPU, not the Worker in front of it, the bottleneck of the
 * playback bench, and its speed swung tenfold with V8's tiering from one run to the next.
 */
const blocks = new Map<number, Uint8Array>();
function generatedBlock(k: number): Uint8Array {
  const shift = k & 0xff;
  let block = blocks.get(shift);
  if (!block) {
    block = new Uint8Array(BLOCK);
    for (let j = 0; j < BLOCK; j++) block[j] = generatedByte(k * BLOCK + j);
    blocks.set(shift, block);
  }
  return block;
}

/**
 * A large file made on the fly in 64 KiB chunks as the reader pulls them: memory stays flat whatever its size.
 * Ranges honoured like the small files. A fixed-length stream, so Content-Length is sent. `?pace=<MiB/s>` sends no
 * faster than that, as a CDN edge delivers to one viewer (the bench's paced runs); without it, as fast as the reader
 * takes the bytes.
 */
function generatedFile(size: number, range: string | null, paceMibPerSecond: number | null): Response {
  const span = rangeOf(size, range);
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', etag: `"generated-${size}"`,
    'last-modified': new Date(Date.UTC(2026, 0, 1)).toUTCString(), ...CACHEABLE,
  };
  if (span === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  }
  const [start, end] = span ?? [0, size - 1];
  const length = end - start + 1;
  const stream = new FixedLengthStream(length);
  const writer = stream.writable.getWriter();
  void (async () => {
    try {
      const started = Date.now();
      for (let at = start; at <= end;) {
        const k = Math.floor(at / BLOCK);
        const from = at - k * BLOCK;
        const count = Math.min(BLOCK - from, end + 1 - at);
        // A copy per write: the stream may hold on to what it is given.
        await writer.write(generatedBlock(k).slice(from, from + count));
        at += count;
        if (paceMibPerSecond) {
          const ahead = started + ((at - start) / (paceMibPerSecond * MIB)) * 1000 - Date.now();
          if (ahead >= 1) await new Promise((resolve) => setTimeout(resolve, ahead));
        }
      }
      await writer.close();
    } catch {
      // The reader went away.
    }
  })();
  return new Response(stream.readable, {
    status: span ? 206 : 200,
    headers: { ...headers, 'content-length': String(length), ...(span ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}) },
  });
}

/** The one `bytes=a-b` range asked for: null for the whole body, or `unsatisfiable`. */
function rangeOf(size: number, range: string | null): [number, number] | null | 'unsatisfiable' {
  const match = range === null ? null : /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2])); // suffix range: the last N bytes
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start >= size || start > end ? 'unsatisfiable' : [start, end];
}

/**
 * A whole body, or the one `bytes=a-b` range asked for (206), or 416 for a range outside it. A strong ETag and a
 * Last-Modified, as a CDN sends them, so a player (and the edge worker in front) can validate and resume.
 */
function byteRange(bytes: Uint8Array, contentType: string, range: string | null, modified?: string): Response {
  const headers: Record<string, string> = {
    'content-type': contentType, 'accept-ranges': 'bytes', etag: `"${bytes.length.toString(16)}-${hashString(contentType + bytes.length).toString(16)}"`,
    ...(modified ? { 'last-modified': new Date(modified).toUTCString() } : {}), ...CACHEABLE,
  };
  const span = rangeOf(bytes.length, range);
  if (span === null) return new Response(bytes, { headers: { ...headers, 'content-length': String(bytes.length) } });
  const size = bytes.length;
  if (span === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  }
  const [start, end] = span;
  return new Response(bytes.slice(start, end + 1), {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) },
  });
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
