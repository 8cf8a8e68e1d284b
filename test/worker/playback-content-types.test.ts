// Playback URLs must not serve just any content type on the worker's own origin (stored XSS). A gateway key with
// write access makes an `external` media whose source is an HLS master in a folder it controls (the sandbox's
// /cdn/hostile/, demo/sandbox/hostile-folder.ts): beside a real playlist and segment it holds a web page, a script, an
// SVG with a script, a page named like a video and one named like a playlist. Through its playback URL an allowed
// visitor gets the media files, and none of the rest: a file whose type is not what its URL is for is refused
// (502 `playback_unsupported_type`, the v2 error body), and every playback answer, refusals included, carries
// `nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`. The browser half of these checks, where Chromium
// loads the page and no script runs, is test/components/integration/playback-content-types.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import type { MediaResponse } from '../../worker/contract/public-api.ts';
import { servedType, typeEssence } from '../../worker/playback/deliver.ts';
import { createKey, resetGateway, send } from '../gateway/helpers.ts';
import { api, EUROPE_SITE, expectError } from './helpers.ts';
import { allMedia, isPublic } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const HLS = 'application/vnd.apple.mpegurl';
const HOSTILE = 'http://sandbox.test/cdn/hostile/';

const play = (url: string, init: RequestInit = {}) => api(url, { ...init, ip: BERLIN });

/** The CSP and nosniff every playback answer carries, whatever its status and type. */
function expectGuarded(response: Response, what: string): void {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  const csp = (response.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
  expect(csp, what).toContain('sandbox');
  expect(csp, what).toContain("default-src 'none'");
  expect(response.headers.get('content-type') ?? '', what).not.toMatch(/html|javascript|ecmascript|xml|css/i);
}

async function expectRefused(response: Response, what: string, method = 'GET'): Promise<void> {
  expectGuarded(response, what);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
  if (method === 'GET') return expectError(response, 502, 'playback_unsupported_type');
  expect(response.status, what).toBe(502);
  expect(await response.text(), what).toBe('');
}

/** The attacker's step: an external media in the gated site, made through the gateway with a write key. */
async function hostileMedia(file: string, mimeType: string): Promise<MediaResponse> {
  const key = await createKey(['write']);
  const created = await send(`/v2/sites/${EUROPE_SITE}/media/`, 'POST', key, {
    metadata: { title: 'Hostile folder', publish_start_date: '2020-01-01T00:00:00Z' },
    upload: { method: 'external', source_url: `${HOSTILE}${file}`, mime_type: mimeType },
  });
  const text = await created.text();
  expect(created.status, text).toBe(201);
  const { id } = JSON.parse(text) as { id: string };
  // The allowed visitor's step: the media answer, whose source is now a playback URL on the worker's origin.
  const answer = await api(`/api/sites/${EUROPE_SITE}/media/${id}`, { ip: BERLIN });
  const body = await answer.text();
  expect(answer.status, body).toBe(200);
  return JSON.parse(body) as MediaResponse;
}

const folderOf = (media: MediaResponse) => media.sources[0]!.url.replace(/[^/]+$/, '');

beforeEach(async () => {
  await resetGateway();
});

describe('playback URLs serve no page or script on the worker\'s own origin (stored XSS)', () => {
  it('an attacker\'s HLS folder: the playlist, segment, captions and key pass, guarded; page, script, SVG, CSS and JSON are refused', async () => {
    const media = await hostileMedia('master.m3u8', HLS);
    expect(media.sources.map((s) => s.type)).toEqual([HLS]);
    const folder = folderOf(media);

    const master = await play(media.sources[0]!.url);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe(HLS);
    expectGuarded(master, 'master');
    const variant = (await master.text()).split('\n').find((line) => line && !line.startsWith('#'))!;
    expect(variant).toBe(`${folder}v/index.m3u8`);
    const media1 = await play(variant);
    expect([media1.status, media1.headers.get('content-type')]).toEqual([200, HLS]);
    expectGuarded(media1, 'variant');
    expect(await media1.text()).toContain(`${folder}v/seg-0.ts`);

    const segment = await play(`${folder}v/seg-0.ts`);
    expect([segment.status, segment.headers.get('content-type')]).toEqual([200, 'video/mp2t']);
    expect(segment.headers.get('content-disposition')).toBeNull();
    expectGuarded(segment, 'segment');
    expect(new Uint8Array(await segment.arrayBuffer())[0]).toBe(0x47);

    const vtt = await play(`${folder}subs.vtt`);
    expect([vtt.status, vtt.headers.get('content-type')]).toEqual([200, 'text/vtt; charset=utf-8']);
    expectGuarded(vtt, 'subs.vtt');
    expect(await vtt.text()).toMatch(/^WEBVTT/);

    // Opaque bytes a player fetches itself pass, but only ever as an attachment: no browser shows them inline.
    for (const file of ['key.bin', 'untyped.bin']) {
      const response = await play(`${folder}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe('application/octet-stream');
      expect(response.headers.get('content-disposition'), file).toBe('attachment');
      expectGuarded(response, file);
      await response.body?.cancel();
    }

    for (const file of ['page.html', 'evil.js', 'image.svg', 'styles.css', 'data.json', 'clip.mp4']) {
      await expectRefused(await play(`${folder}${file}`), file);
      await expectRefused(await play(`${folder}${file}`, { method: 'HEAD' }), `HEAD ${file}`, 'HEAD');
      await expectRefused(await play(`${folder}${file}`, { headers: { range: 'bytes=0-99' } }), `range ${file}`);
    }
    // A page named like a playlist is no playlist; a playlist named like something else is not passed on unrewritten.
    await expectRefused(await play(`${folder}page.m3u8`), 'page.m3u8');
    await expectRefused(await play(`${folder}playlist`), 'playlist');
  });

  it('a progressive source that is really a page is refused, and never kept in the edge cache', async () => {
    const media = await hostileMedia('clip.mp4', 'video/mp4');
    // Typed as the Delivery API states an external media's one source: the media's own type.
    expect(media.sources.map((s) => [s.type, s.url.split('/').pop()])).toEqual([['video/mp4', 'clip.mp4']]);
    await caches.default.delete(new Request(`${HOSTILE}clip.mp4`));
    for (const init of [{}, { method: 'HEAD' }, { headers: { range: 'bytes=0-' } }]) {
      await expectRefused(await play(media.sources[0]!.url, init), 'clip.mp4', init.method);
    }
    expect(await caches.default.match(new Request(`${HOSTILE}clip.mp4`))).toBeUndefined();
  });

  it('the seed\'s own files still pass, typed and guarded: MP4, HLS, segment, poster (SVG, sandboxed) and captions', async () => {
    let media: MediaResponse | null = null;
    for (const m of (await allMedia(EUROPE_SITE)).filter((x) => isPublic(x) && x.media_type === 'video')) {
      const body = await (await api(`/api/sites/${EUROPE_SITE}/media/${m.id}`, { ip: BERLIN })).json() as MediaResponse;
      if (body.tracks.length && body.poster && body.sources.some((s) => s.type === HLS) && body.sources.some((s) => s.type === 'video/mp4')) {
        media = body;
        break;
      }
    }
    expect(media).not.toBeNull();
    const hls = media!.sources.find((s) => s.type === HLS)!.url;
    const expected: Array<[string, string]> = [
      [media!.sources.find((s) => s.type === 'video/mp4')!.url, 'video/mp4'],
      [hls, HLS],
      [hls.replace(/[^/]+\.m3u8$/, `${media!.id}/360p/seg-0.ts`), 'video/mp2t'],
      // The sandbox's posters are SVG, which can carry script: passed as an image, for <img> and <video poster>
      // (which never run it), and opened on its own a sandboxed document (no script, opaque origin).
      [media!.poster!, 'image/svg+xml'],
      [media!.tracks[0]!.url, 'text/vtt; charset=utf-8'],
    ];
    for (const [url, type] of expected) {
      const response = await play(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe(type);
      expect(response.headers.get('content-disposition'), url).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toMatch(/(^|; )sandbox(;|$)/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      await response.body?.cancel();
    }
    // A refusal on a playback path is guarded too (here New York, whom `europe` refuses).
    const refused = await api(media!.poster!, { ip: '192.0.2.20' });
    expectGuarded(refused, 'refusal');
    await expectError(refused, 451, 'playback_denied');
  });

  it('what each kind of playback URL may serve (servedType)', () => {
    const ok = (type: string, attachment = false) => ({ type, attachment });
    // Posters: images only; SVG allowed (see above), HTML, XML and script never.
    expect(servedType('poster', false, 'image/jpeg')).toEqual(ok('image/jpeg'));
    expect(servedType('poster', false, 'IMAGE/PNG; charset=binary')).toEqual(ok('image/png'));
    expect(servedType('poster', false, 'image/svg+xml; charset=utf-8')).toEqual(ok('image/svg+xml'));
    for (const type of ['text/html', 'application/xhtml+xml', 'text/xml', 'application/javascript', 'video/mp4', '', null,
      'image/x-unknown', 'application/octet-stream']) {
      expect(servedType('poster', false, type), String(type)).toBeNull();
    }
    // Tracks: WebVTT only.
    expect(servedType('track', false, 'text/vtt')).toEqual(ok('text/vtt; charset=utf-8'));
    for (const type of ['text/plain', 'text/html', 'application/ttml+xml', '', 'image/svg+xml']) {
      expect(servedType('track', false, type), type).toBeNull();
    }
    // Sources: video and audio inline; opaque bytes, fragmented MP4 and (a file's) DASH manifest as attachments.
    expect(servedType('source', false, 'video/mp4')).toEqual(ok('video/mp4'));
    expect(servedType('source', true, 'video/MP2T')).toEqual(ok('video/mp2t'));
    expect(servedType('source', true, 'audio/aac')).toEqual(ok('audio/aac'));
    expect(servedType('source', true, 'text/vtt; charset=utf-8')).toEqual(ok('text/vtt; charset=utf-8'));
    expect(servedType('source', false, 'text/vtt')).toBeNull();
    expect(servedType('source', false, 'application/octet-stream')).toEqual(ok('application/octet-stream', true));
    expect(servedType('source', true, null)).toEqual(ok('application/octet-stream', true));
    expect(servedType('source', false, 'application/dash+xml')).toEqual(ok('application/dash+xml', true));
    expect(servedType('source', true, 'application/dash+xml')).toBeNull();
    // A playlist passes only through the rewriter, never as a plain file.
    for (const type of [HLS, 'application/x-mpegURL', 'audio/mpegurl', 'audio/x-mpegurl']) {
      expect(servedType('source', true, type), type).toBeNull();
    }
    for (const type of ['text/html', 'text/javascript', 'application/json', 'text/css', 'image/svg+xml', 'text/plain',
      'application/xml', 'multipart/x-mixed-replace', 'text/html, video/mp4', 'video/mp4 html', '/']) {
      expect(servedType('source', true, type), type).toBeNull();
      expect(servedType('source', false, type), type).toBeNull();
    }
    expect([typeEssence(null), typeEssence(' Video/MP4 ; codecs="avc1"'), typeEssence('nonsense')]).toEqual(['', 'video/mp4', null]);
  });
});
