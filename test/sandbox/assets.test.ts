// What delivery URLs serve: SVG thumbnails and media posters honouring ?width=, WebVTT with real cues, MP4 and HLS
// (the HLS a video is packaged in: the Management API lists no rendition for it; the Delivery API names its master).
import { env } from 'cloudflare:test';
import { beforeEach, expect, it } from 'vitest';
import type { DeliveryFeed, DeliverySource } from '../../worker/contract/delivery-types.ts';
import { callJson, reset, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  site = (await sites()).big;
});

it('a thumbnail delivery URL serves an SVG image, 16:9 and 1920 wide unless ?width= says otherwise', async () => {
  const id = site.media.published[0]!;
  const created = await callJson('POST', `/v2/sites/${site.id}/thumbnails/`, {
    body: { relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, video_position: 2 } },
  });
  expect(created.status).toBe(201);
  const url = created.body.delivery_url as string;
  const image = await env.SANDBOX.fetch(url);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  const svg = await image.text();
  expect(svg).toMatch(/^<svg [^>]*width="1920" height="1080"/);
  const small = await (await env.SANDBOX.fetch(`${url}?width=320`)).text();
  expect(small).toMatch(/^<svg [^>]*width="320" height="180"/);
  expect((await env.SANDBOX.fetch(`${url}?width=huge`)).status).toBe(400);
});

it('a media\'s poster image is public at /v2/media/<id>/poster.jpg, 720 wide unless ?width= says otherwise', async () => {
  const id = site.media.published[0]!;
  const poster = await env.SANDBOX.fetch(`http://sandbox.test/v2/media/${id}/poster.jpg`);
  expect(poster.status).toBe(200);
  expect(poster.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  const drawn = await poster.text();
  expect(drawn).toMatch(/^<svg [^>]*width="720" height="405"/);
  // A picture, not a control: no play glyph of its own under the player's. What is drawn is the
  // gradient frame, the title and the duration.
  expect([...drawn.matchAll(/<([a-zA-Z]+)[\s>/]/g)].map((m) => m[1])).toEqual(
    ['svg', 'defs', 'linearGradient', 'stop', 'stop', 'rect', 'text', 'text']);
  expect(await (await env.SANDBOX.fetch(`http://sandbox.test/v2/media/${id}/poster.jpg?width=320`)).text())
    .toMatch(/^<svg [^>]*width="320" height="180"/);
  const refused = await env.SANDBOX.fetch(`http://sandbox.test/v2/media/${id}/poster.jpg?width=huge`);
  expect(refused.status).toBe(400);
  await refused.body?.cancel();
  const unknown = await env.SANDBOX.fetch('http://sandbox.test/v2/media/zzzzzzzz/poster.jpg');
  expect(unknown.status).toBe(404);
  await unknown.body?.cancel();
  const written = await env.SANDBOX.fetch(`http://sandbox.test/v2/media/${id}/poster.jpg`, { method: 'POST' });
  expect(written.status).toBe(405);
  await written.body?.cancel();
  // A media not processed yet has no frame to show.
  const waiting = await env.SANDBOX.fetch(`http://sandbox.test/v2/media/${site.media.not_ready[0]}/poster.jpg`);
  expect(waiting.status).toBe(404);
  await waiting.body?.cancel();
});

it('a text track delivery URL serves WebVTT with cues', async () => {
  const id = site.media.with_subtitles[0]!;
  const tracks = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/text_tracks/`)).body.text_tracks;
  for (const track of tracks) {
    const response = await env.SANDBOX.fetch(track.delivery_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/vtt/);
    const text = await response.text();
    expect(text.startsWith('WEBVTT\n')).toBe(true);
    expect(text).toMatch(/\n\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n.+/);
  }
});

it('MP4 rendition delivery URLs serve a real, playable MP4 and honour byte ranges', async () => {
  const renditions = (await callJson('GET', `/v2/sites/${site.id}/media/${site.media.published[1]}/media_renditions/`)).body.media_renditions;
  const mp4 = renditions.find((rendition: { format: string }) => rendition.format === 'mp4');
  const whole = await env.SANDBOX.fetch(mp4.delivery_url);
  expect(whole.status).toBe(200);
  expect(whole.headers.get('content-type')).toBe('video/mp4');
  expect(whole.headers.get('accept-ranges')).toBe('bytes');
  const bytes = new Uint8Array(await whole.arrayBuffer());
  // An ISO BMFF file opens with an `ftyp` box, and with +faststart its `moov` index comes before the media data.
  expect(new TextDecoder().decode(bytes.slice(4, 8))).toBe('ftyp');
  const text = new TextDecoder('latin1').decode(bytes);
  expect(text.indexOf('moov')).toBeGreaterThan(0);
  expect(text.indexOf('moov')).toBeLessThan(text.indexOf('mdat'));

  const part = await env.SANDBOX.fetch(mp4.delivery_url, { headers: { range: 'bytes=0-99' } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
  expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(0, 100));
  const tail = await env.SANDBOX.fetch(mp4.delivery_url, { headers: { range: 'bytes=-10' } });
  expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(-10));
  const outside = await env.SANDBOX.fetch(mp4.delivery_url, { headers: { range: `bytes=${bytes.length}-` } });
  expect(outside.status).toBe(416);
  await outside.body?.cancel();
});

const HLS = 'application/vnd.apple.mpegurl';
const uris = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));

/** A published video's HLS master: the first source of its Delivery API answer (the big site does not sign). */
async function hlsSource(mediaId: string): Promise<DeliverySource> {
  const answer = await callJson<DeliveryFeed>('GET', `/v2/media/${mediaId}`, { anonymous: true });
  expect(answer.status, mediaId).toBe(200);
  const [first] = answer.body.playlist[0]!.sources;
  expect(first, mediaId).toMatchObject({ type: HLS, file: expect.stringMatching(new RegExp(`/manifests/${mediaId}\\.m3u8$`)) });
  return first!;
}

it('a video\'s HLS master, its Delivery API answer\'s first source, serves two variants, each of several real MPEG-TS segments', async () => {
  const mediaId = site.media.published[1]!;
  // HLS is the delivery side's: the Management API lists MP4 renditions only.
  const renditions = (await callJson('GET', `/v2/sites/${site.id}/media/${mediaId}/media_renditions/`)).body.media_renditions;
  expect(renditions.map((rendition: { format: string }) => rendition.format)).not.toContain('m3u8');
  const source = await hlsSource(mediaId);
  // Named with its top variant's size.
  expect([source.width, source.height]).toEqual([1280, 720]);
  const master = source.file;
  const response = await env.SANDBOX.fetch(master);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(HLS);
  const text = await response.text();
  expect(text.startsWith('#EXTM3U\n')).toBe(true);
  expect(text.match(/#EXT-X-STREAM-INF:BANDWIDTH=\d+,RESOLUTION=\d+x\d+/g)).toHaveLength(2);
  // The clip's own codecs (H.264 Constrained Baseline 1.2, AAC-LC): an MSE player builds its buffers from them.
  expect(text.match(/,CODECS="avc1\.42c00c,mp4a\.40\.2"/g)).toHaveLength(2);
  const { duration } = (await callJson('GET', `/v2/sites/${site.id}/media/${mediaId}/`)).body;
  const variants = uris(text);
  expect(variants).toEqual([`${mediaId}/360p/index.m3u8`, `${mediaId}/720p/index.m3u8`]);
  for (const variant of variants) {
    const url = new URL(variant, master).href;
    const media = await (await env.SANDBOX.fetch(url)).text();
    expect(media).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(media).toContain('#EXT-X-ENDLIST');
    const segments = uris(media);
    // A segment per 5 s of the media, so a player buffers a few at a time and adapts mid-play.
    expect(segments.length).toBe(Math.min(720, Math.max(3, Math.ceil(duration / 5))));
    for (const segment of [segments[0]!, segments[segments.length >> 1]!, segments.at(-1)!]) {
      const bytes = new Uint8Array(await (await env.SANDBOX.fetch(new URL(segment, url).href)).arrayBuffer());
      // MPEG-TS: 188-byte packets, each opening with the sync byte 0x47.
      expect(bytes.length % 188).toBe(0);
      expect([bytes[0], bytes[188], bytes[188 * 10]]).toEqual([0x47, 0x47, 0x47]);
    }
    const past = await env.SANDBOX.fetch(new URL(`seg-${segments.length}.ts`, url).href);
    expect(past.status).toBe(404);
    await past.body?.cancel();
  }
  const outside = await env.SANDBOX.fetch(new URL(`${mediaId}/1080p/index.m3u8`, master).href);
  expect(outside.status).toBe(404);
  await outside.body?.cancel();
});

it('a media with subtitles lists them in its HLS master as a subtitles group of WebVTT playlists', async () => {
  const master = (await hlsSource(site.media.with_subtitles[0]!)).file;
  const text = await (await env.SANDBOX.fetch(master)).text();
  const group = /#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",[^\n]*URI="([A-Za-z0-9]+\/subs\/[A-Za-z0-9]+\.m3u8)"/.exec(text);
  expect(group).not.toBeNull();
  expect(text).toContain('SUBTITLES="subs"');
  const url = new URL(group![1]!, master).href;
  const playlist = await (await env.SANDBOX.fetch(url)).text();
  const [vtt] = uris(playlist);
  const vttText = await (await env.SANDBOX.fetch(new URL(vtt!, url).href)).text();
  expect(vttText.startsWith('WEBVTT\n')).toBe(true);
});

it('the generated file streams any size on the fly, with ranges, a length and a checkable pattern', async () => {
  const head = await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/8.bin', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-length')).toBe(String(8 * 1024 * 1024));
  expect(head.headers.get('accept-ranges')).toBe('bytes');
  const whole = new Uint8Array(await (await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/1.bin')).arrayBuffer());
  expect(whole.length).toBe(1024 * 1024);
  const expected = (i: number) => (i * 31 + (i >>> 16)) & 0xff;
  const wrong = whole.findIndex((byte, i) => byte !== expected(i));
  expect(wrong).toBe(-1);
  // A range that starts and ends inside 64 KiB blocks and crosses the boundary between them.
  const across = await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/1.bin', { headers: { range: 'bytes=65530-131080' } });
  expect(across.status).toBe(206);
  expect([...new Uint8Array(await across.arrayBuffer())]).toEqual([...whole.slice(65_530, 131_081)]);
  const part = await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/1.bin', { headers: { range: 'bytes=100000-100009' } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 100000-100009/${1024 * 1024}`);
  expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([...whole.slice(100_000, 100_010)]);
  // Paced (as the bench's CDN): the same bytes, sent no faster than asked; a pace that is not a number is refused.
  const paced = new Uint8Array(await (await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/1.bin?pace=500')).arrayBuffer());
  expect(paced.findIndex((byte, i) => byte !== whole[i])).toBe(-1);
  expect(paced.length).toBe(whole.length);
  const badPace = await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/1.bin?pace=fast');
  expect(badPace.status).toBe(400);
  expect(await badPace.json()).toMatchObject({ errors: [{ code: 'invalid_pace' }] });
  const none = await env.SANDBOX.fetch('http://sandbox.test/cdn/generated/0.bin');
  expect(none.status).toBe(404);
  await none.body?.cancel();
});

it('a video\'s storyboard: /strips/<id>-120.vtt, a cue every few seconds naming its frame in a sprite sheet beside it', async () => {
  const id = site.media.published[0]!;
  const { duration, media_type: type } = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/`)).body;
  expect(type).toBe('video');
  const vtt = await env.SANDBOX.fetch(`http://sandbox.test/strips/${id}-120.vtt`);
  expect([vtt.status, vtt.headers.get('content-type')]).toEqual([200, 'text/vtt; charset=utf-8']);
  const lines = (await vtt.text()).split('\n');
  expect(lines[0]).toBe('WEBVTT');
  const timings = lines.filter((l) => l.includes('-->'));
  const refs = lines.filter((l) => l.includes('#xywh='));
  expect(timings.length).toBe(refs.length);
  expect(timings.length).toBeLessThanOrEqual(100);
  expect(timings[0]).toMatch(/^00:00:00\.000 --> 00:00:0\d\.000$/);
  // The last cue ends at the media's end.
  expect(timings.at(-1)!.split(' --> ')[1]).toBe(new Date(duration * 1000).toISOString().slice(11, 23));
  refs.forEach((ref, i) => expect(ref).toBe(`${id}-120.svg#xywh=${(i % 10) * 120},${Math.floor(i / 10) * 68},120,68`));
  const sheet = await env.SANDBOX.fetch(`http://sandbox.test/strips/${id}-120.svg`);
  expect([sheet.status, sheet.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
  const svg = await sheet.text();
  expect(svg).toMatch(new RegExp(`^<svg [^>]*width="${Math.min(10, refs.length) * 120}" height="${Math.ceil(refs.length / 10) * 68}"`));
  expect(svg.match(/<rect /g)).toHaveLength(refs.length);
  for (const path of [`/strips/${id}-240.vtt`, `/strips/${id}-120.jpg`, '/strips/zzzzzzzz-120.vtt', `/strips/${id}.vtt`]) {
    const missing = await env.SANDBOX.fetch(`http://sandbox.test${path}`);
    expect(missing.status, path).toBe(404);
    expect((await missing.json() as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('not_found');
  }
});
