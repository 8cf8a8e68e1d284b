// The bytes are gated, not only the JSON: media bytes obey the same policies as the JSON. Content
// under a policy is handed out only as the worker's own playback URLs; every byte request is checked again (signature,
// expiry, the caller's location against the policies now, the network it was handed to, the file it opens). Against
// the real worker and the sandbox's CDN (/videos/, /manifests/, /tracks/, ...).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import worker from '../../worker/index.ts';
import type { FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import { checkRawPath } from '../../worker/http/request-guard.ts';
import { api, boundMediaIds, config, EUROPE_SITE, eventually, expectError, resetWorld, sandbox, SITE, stats } from './helpers.ts';
import { allMedia, isPublic, playlistOfType } from './upstream-direct.ts';

const IP = {
  berlin: '192.0.2.30',
  london: '192.0.2.10',
  newYork: '192.0.2.21',
  tokyo: '192.0.2.50',
  vpnLondon: '198.51.100.15',
  frankfurtV6: '2001:db8::10',
};
const HLS = 'application/vnd.apple.mpegurl';
/** The sandbox's delivery paths (demo/sandbox/delivery-paths.ts): none may show in what a gated visitor is handed. */
const DELIVERY_PATHS = ['/videos/', '/manifests/', '/tracks/', '/strips/', '/v2/media/'];
const PLAY = /^\/api\/play\/[A-Za-z0-9_-]+\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

const play = (url: string, ip: string, init: RequestInit = {}) => api(url, { ...init, ip });
const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const uris = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));

/** The sandbox's own delivery URL for a file (what an attacker would want), read with the API secret. */
async function upstreamMedia(site: string, id: string): Promise<MediaResponse> {
  // The worker's projection of the sandbox answer, as an ungated caller would see it, is what the record holds; read it
  // from KV once the worker has cached it.
  let record: MediaResponse | null = null;
  await eventually(async () => {
    const stored = await env.CACHE.get<{ value: MediaResponse }>(`media:${site}:${id}`, 'json');
    record = stored?.value ?? null;
    return record !== null;
  });
  return record!;
}

/** A published video of the europe site with MP4 and HLS renditions, text tracks and a poster, as Berlin sees it. */
async function gatedMedia(ip = IP.berlin): Promise<MediaResponse> {
  for (const m of (await allMedia(EUROPE_SITE)).filter((x) => isPublic(x) && x.media_type === 'video')) {
    const body = await json<MediaResponse>(await api(`/api/sites/${EUROPE_SITE}/media/${m.id}`, { ip }));
    if (body.tracks.length && body.poster && body.sources.some((s) => s.type === HLS) && body.sources.some((s) => s.type === 'video/mp4')) {
      return body;
    }
  }
  throw new Error('the seed has no gated video with tracks, HLS and MP4');
}
const mp4Of = (m: MediaResponse) => m.sources.find((s) => s.type === 'video/mp4')!.url;
const hlsOf = (m: MediaResponse) => m.sources.find((s) => s.type === HLS)!.url;

/** The worker called directly with other bindings (here: other playback keys, DEV_MODE off). */
async function withEnv(overrides: Partial<Env>, path: string, ip: string, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://localhost${path}`, { headers: { 'x-reelgate-dev-ip': ip, ...headers } }),
    { ...env, ...overrides } as Env, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
}
type Env = import('../../worker/env.ts').Env;

beforeEach(async () => {
  await resetWorld();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the bytes are gated like the JSON', () => {
  it('a gated media answer names no upstream delivery URL: sources, HLS, tracks and poster are playback URLs', async () => {
    const response = await api(`/api/sites/${EUROPE_SITE}/media/${(await gatedMedia()).id}`, { ip: IP.berlin });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = await response.text();
    for (const path of DELIVERY_PATHS) expect(text).not.toContain(path);
    expect(text).not.toContain('sandbox.test');
    const body = JSON.parse(text) as MediaResponse;
    const urls = [body.poster!, body.thumbnail!, ...body.sources.map((s) => s.url), ...body.tracks.map((t) => t.url)];
    for (const url of urls) {
      expect(url).toMatch(PLAY);
      // The front door's raw-path check lets every playback URL through as it is.
      expect(checkRawPath(`http://localhost${url}`)).toBe(url);
    }
    expect(hlsOf(body)).toMatch(new RegExp(`/${body.id}\\.m3u8$`));
  });

  it('ungated content keeps the platform URLs and its public cache lifetime', async () => {
    const bound = await boundMediaIds(SITE);
    const pick = (await allMedia(SITE)).find((m) => isPublic(m) && m.media_type === 'video' && !bound.has(m.id))!;
    const response = await api(`/api/sites/${SITE}/media/${pick.id}`);
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const body = await json<MediaResponse>(response);
    for (const s of body.sources) expect(s.url).toMatch(/^http:\/\/sandbox\.test\/(videos|manifests)\//);
  });

  it('an allowed visitor streams the MP4 through its playback URL: the CDN\'s bytes, ranges, HEAD and validators', async () => {
    const media = await gatedMedia();
    const record = await upstreamMedia(EUROPE_SITE, media.id);
    const direct = await sandbox(new URL(record.sources.find((s) => s.type === 'video/mp4')!.url).pathname);
    const original = await bytes(direct);
    const whole = await play(mp4Of(media), IP.berlin);
    expect(whole.status).toBe(200);
    for (const name of ['content-type', 'etag', 'last-modified', 'accept-ranges']) {
      expect(whole.headers.get(name), name).toBe(direct.headers.get(name));
    }
    expect(whole.headers.get('content-length')).toBe(String(original.length));
    expect(whole.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(await bytes(whole)).toEqual(original);

    const part = await play(mp4Of(media), IP.berlin, { headers: { range: 'bytes=100-1123' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${original.length}`);
    expect(part.headers.get('content-length')).toBe('1024');
    expect(await bytes(part)).toEqual(original.slice(100, 1124));

    const head = await play(mp4Of(media), IP.berlin, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(original.length));
    expect(head.headers.get('etag')).toBe(direct.headers.get('etag'));
    expect((await bytes(head)).length).toBe(0);
  });

  it('HLS: master and media playlists are rewritten so every variant, segment and subtitle URI is a playback URL', async () => {
    const media = await gatedMedia();
    const master = await play(hlsOf(media), IP.berlin);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe(HLS);
    const masterText = await master.text();
    for (const path of DELIVERY_PATHS) expect(masterText).not.toContain(path);
    const prefix = hlsOf(media).replace(/[^/]+\.m3u8$/, `${media.id}/`);
    const variants = uris(masterText);
    expect(variants).toEqual([`${prefix}360p/index.m3u8`, `${prefix}720p/index.m3u8`]);
    // The variants' codecs pass through the rewriter as written (an MSE player builds its buffers from them).
    expect(masterText.match(/^#EXT-X-STREAM-INF:BANDWIDTH=\d+,RESOLUTION=\d+x\d+,CODECS="avc1\.42c00c,mp4a\.40\.2"/gm)).toHaveLength(2);
    const subtitles = [...masterText.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!);
    expect(subtitles.length).toBeGreaterThan(0);
    for (const uri of subtitles) expect(uri.startsWith(`${prefix}subs/`)).toBe(true);

    for (const variant of variants) {
      const playlist = await (await play(variant, IP.berlin)).text();
      const segments = uris(playlist);
      // A segment per 5 s of the media (demo/sandbox/assets.ts, hlsSegmentCount): long enough for a player to adapt.
      expect(segments.length).toBe(Math.min(720, Math.max(3, Math.ceil(media.duration! / 5))));
      for (const segment of segments) {
        expect(segment).toMatch(PLAY);
        expect(segment.startsWith(prefix)).toBe(true);
      }
      // The first, a middle one and the last play (every one would spend the per-visitor abuse limit).
      for (const segment of [segments[0]!, segments[segments.length >> 1]!, segments.at(-1)!]) {
        const ts = await bytes(await play(segment, IP.berlin));
        expect([ts.length % 188, ts[0], ts[188]]).toEqual([0, 0x47, 0x47]);
      }
    }
    const subtitle = await (await play(subtitles[0]!, IP.berlin)).text();
    const vtt = await play(uris(subtitle)[0]!, IP.berlin);
    expect((await vtt.text()).startsWith('WEBVTT')).toBe(true);
  });

  it('segments are cached at the edge without the token in the key: another viewer\'s token hits the same copy', async () => {
    const berlin = await gatedMedia(IP.berlin);
    const frankfurt = await json<MediaResponse>(await api(`/api/sites/${EUROPE_SITE}/media/${berlin.id}`, { ip: IP.frankfurtV6 }));
    expect(hlsOf(frankfurt)).not.toBe(hlsOf(berlin));
    const record = await upstreamMedia(EUROPE_SITE, berlin.id);
    const upstream = new URL(`${berlin.id}/720p/seg-1.ts`, record.sources.find((s) => s.type === HLS)!.url).href;
    // The edge cache outlives the world reset: start from a cold copy of this segment.
    await caches.default.delete(new Request(upstream));
    const first = hlsOf(berlin).replace(/[^/]+\.m3u8$/, `${berlin.id}/720p/seg-1.ts`);
    const second = hlsOf(frankfurt).replace(/[^/]+\.m3u8$/, `${berlin.id}/720p/seg-1.ts`);
    const a = await play(first, IP.berlin);
    expect(a.headers.get('x-reelgate-cache')).toBe('MISS');
    const aBytes = await bytes(a);
    let b: Response | null = null;
    await eventually(async () => {
      b = await play(second, IP.frankfurtV6);
      if (b.headers.get('x-reelgate-cache') === 'HIT') return true;
      await b.body?.cancel();
      return false;
    });
    expect(await bytes(b!)).toEqual(aBytes);
  });

  it('the replayed URL as a denied visitor is refused: 451 playback_denied, for video, HLS, poster and captions', async () => {
    const media = await gatedMedia();
    const urls = [mp4Of(media), hlsOf(media), hlsOf(media).replace(/[^/]+\.m3u8$/, `${media.id}/360p/seg-0.ts`), media.poster!,
      media.tracks[0]!.url];
    for (const ip of [IP.newYork, IP.tokyo]) {
      for (const url of urls) await expectError(await play(url, ip), 451, 'playback_denied');
      const head = await play(mp4Of(media), ip, { method: 'HEAD' });
      expect(head.status).toBe(451);
      expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('a gated feed names no upstream poster: its thumbnails are playback URLs that open for the allowed only', async () => {
    const manual = await playlistOfType(EUROPE_SITE, 'manual');
    const feed = await json<FeedResponse>(await api(`/api/sites/${EUROPE_SITE}/playlists/${manual.id}`, { ip: IP.berlin }));
    const withPoster = feed.items.filter((item) => item.thumbnail !== null);
    expect(withPoster.length).toBeGreaterThan(0);
    for (const item of feed.items) {
      for (const path of DELIVERY_PATHS) expect(JSON.stringify(item)).not.toContain(path);
      if (item.thumbnail) expect(item.thumbnail).toMatch(PLAY);
    }
    // No media answer was ever asked for: the feed's own record of the poster opens it.
    const thumbnail = withPoster[0]!.thumbnail!;
    const allowed = await play(thumbnail, IP.berlin);
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    expect(allowed.headers.get('content-type')).toMatch(/^image\//);
    expect((await bytes(allowed)).length).toBeGreaterThan(0);
    await expectError(await play(thumbnail, IP.newYork), 451, 'playback_denied');
  });

  it('a proxy the media\'s own policy refuses cannot replay its URLs', async () => {
    const id = Object.keys(config.sites[SITE]!.media ?? {})[0]!;
    const body = await json<MediaResponse>(await api(`/api/sites/${SITE}/media/${id}`, { ip: IP.london }));
    expect(body.sources[0]!.url).toMatch(PLAY);
    const file = await play(body.sources[0]!.url, IP.london);
    expect(file.status).toBe(200);
    await file.body?.cancel();
    await expectError(await play(body.sources[0]!.url, IP.vpnLondon), 451, 'playback_denied');
  });

  it('after expiry the URL is refused: 403 playback_expired', async () => {
    const media = await gatedMedia();
    const ok = await play(media.poster!, IP.berlin);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
    vi.useFakeTimers({ toFake: ['Date'] });
    // The test configuration keeps the default lifetime of 60 minutes (rounded up to the minute).
    vi.setSystemTime(Date.now() + 62 * 60_000);
    for (const url of [mp4Of(media), hlsOf(media), media.poster!, media.tracks[0]!.url]) {
      await expectError(await play(url, IP.berlin), 403, 'playback_expired');
    }
  });

  it('x-reelgate-dev-now never re-opens an expired URL (only a time later than the clock counts)', async () => {
    const media = await gatedMedia();
    const issued = String(Math.floor(Date.now() / 1000));
    vi.useFakeTimers({ toFake: ['Date'] });
    // Past the default lifetime of 60 minutes by the worker's clock; the header names the time the URL was issued.
    vi.setSystemTime(Date.now() + 62 * 60_000);
    for (const url of [mp4Of(media), media.poster!]) {
      await expectError(await play(url, IP.berlin, { headers: { 'x-reelgate-dev-now': issued } }), 403, 'playback_expired');
    }
  });

  it('the development clock (x-reelgate-dev-now) and ?dev_ip= work with DEV_MODE on only', async () => {
    const media = await gatedMedia();
    const later = { 'x-reelgate-dev-now': String(Math.floor(Date.now() / 1000) + 2 * 3600) };
    await expectError(await play(media.poster!, IP.berlin, { headers: later }), 403, 'playback_expired');
    // With DEV_MODE off the header means nothing (and the address is the connection's).
    const off = await withEnv({ DEV_MODE: 'false' }, media.poster!, IP.berlin, { ...later, 'cf-connecting-ip': IP.berlin });
    expect(off.status).toBe(200);
    // Nor is the stand-in address of a media element (?dev_ip=) a parameter production knows.
    await expectError(await withEnv({ DEV_MODE: 'false' }, `${media.poster!}?dev_ip=${IP.berlin}`, IP.berlin,
      { 'cf-connecting-ip': IP.berlin }), 400, 'invalid_request');
  });

  it('x-reelgate-dev-token-seconds makes one answer\'s URLs expire that many seconds from now, with DEV_MODE on only', async () => {
    const media = await gatedMedia();
    const path = `/api/sites/${EUROPE_SITE}/media/${media.id}`;
    const short = await json<MediaResponse>(await api(path, { ip: IP.berlin, headers: { 'x-reelgate-dev-token-seconds': '30' } }));
    const now = Math.floor(Date.now() / 1000);
    const at = (seconds: number) => ({ headers: { 'x-reelgate-dev-now': String(now + seconds) } });
    const before = await play(mp4Of(short), IP.berlin, at(25));
    expect(before.status).toBe(200);
    await before.body?.cancel();
    await expectError(await play(mp4Of(short), IP.berlin, at(31)), 403, 'playback_expired');
    // Other answers keep the configured lifetime.
    const usual = await play(mp4Of(await gatedMedia()), IP.berlin, at(31));
    expect(usual.status).toBe(200);
    await usual.body?.cancel();
    // With DEV_MODE off the header means nothing.
    const off = await withEnv({ DEV_MODE: 'false' }, path, IP.berlin,
      { 'cf-connecting-ip': IP.berlin, 'x-reelgate-dev-token-seconds': '30' });
    const offMedia = await json<MediaResponse>(off);
    const still = await play(mp4Of(offMedia), IP.berlin, at(31));
    expect(still.status).toBe(200);
    await still.body?.cancel();
  });

  it('a URL tampered by one character is refused: 403 playback_invalid', async () => {
    const media = await gatedMedia();
    const url = mp4Of(media);
    const [, token, file] = /^\/api\/play\/([^/]+)\/(.+)$/.exec(url)!;
    for (let i = 0; i < token!.length; i += 5) {
      const c = token![i]!;
      const changed = `${token!.slice(0, i)}${c === 'A' ? 'B' : 'A'}${token!.slice(i + 1)}`;
      await expectError(await play(`/api/play/${changed}/${file}`, IP.berlin), 403, 'playback_invalid');
    }
    const last = token!.length - 1;
    await expectError(await play(`/api/play/${token!.slice(0, last)}${token![last] === 'A' ? 'Q' : 'A'}/${file}`, IP.berlin),
      403, 'playback_invalid');
    await expectError(await play(`/api/play/${token}x/${file}`, IP.berlin), 403, 'playback_invalid');
    await expectError(await play(`/api/play/${token!.slice(1)}/${file}`, IP.berlin), 403, 'playback_invalid');
    // The one the worker signed still plays.
    const genuine = await play(url, IP.berlin);
    expect(genuine.status).toBe(200);
    await genuine.body?.cancel();
  });

  it('a path the token does not open is refused: another file, another media\'s file, a file outside the HLS folder', async () => {
    const media = await gatedMedia();
    const [, mp4Token] = /^\/api\/play\/([^/]+)\//.exec(mp4Of(media))!;
    const [, posterToken, posterFile] = /^\/api\/play\/([^/]+)\/(.+)$/.exec(media.poster!)!;
    const mp4File = mp4Of(media).split('/').pop()!;
    await expectError(await play(`/api/play/${mp4Token}/${posterFile}`, IP.berlin), 403, 'playback_invalid');
    await expectError(await play(`/api/play/${posterToken}/${mp4File}`, IP.berlin), 403, 'playback_invalid');
    await expectError(await play(`/api/play/${mp4Token}/sub/${mp4File}`, IP.berlin), 403, 'playback_invalid');
    // A folder token opens files under its folder only; what the folder does not hold is the CDN's 404.
    const hlsPrefix = hlsOf(media).replace(/[^/]+\.m3u8$/, '');
    await expectError(await play(`${hlsPrefix}${media.id}/1080p/index.m3u8`, IP.berlin), 404, 'not_found');
    await expectError(await play(`${hlsPrefix}.hidden`, IP.berlin), 403, 'playback_invalid');
    await expectError(await play(hlsPrefix.replace(/\/$/, ''), IP.berlin), 403, 'playback_invalid');
  });

  it('a URL handed to one network is refused on another, even where the policy allows: 403 playback_invalid', async () => {
    const media = await gatedMedia(IP.berlin);
    // London shares Berlin's /24 in the fixtures; Frankfurt over IPv6 is another network in an allowed place.
    const same = await play(media.poster!, IP.london);
    expect(same.status).toBe(200);
    await same.body?.cancel();
    await expectError(await play(media.poster!, IP.frankfurtV6), 403, 'playback_invalid');
  });

  it('key rotation: URLs signed by the old key play while both keys are listed, and stop once it is removed', async () => {
    const oldKey = 'old:rotation-old-key-not-for-production-000001';
    const newKey = 'new:rotation-new-key-not-for-production-000002';
    const path = `/api/sites/${EUROPE_SITE}/media/${(await gatedMedia()).id}`;
    const before = await json<MediaResponse>(await withEnv({ PLAYBACK_KEYS: oldKey }, path, IP.berlin));
    // Step 1: the new key listed second (verifies, does not sign). Step 2: the new key first (signs).
    for (const keys of [`${oldKey},${newKey}`, `${newKey} ${oldKey}`]) {
      const r = await withEnv({ PLAYBACK_KEYS: keys }, before.poster!, IP.berlin);
      expect(r.status).toBe(200);
    }
    const after = await json<MediaResponse>(await withEnv({ PLAYBACK_KEYS: `${newKey},${oldKey}` }, path, IP.berlin));
    expect(after.poster).not.toBe(before.poster);
    // Step 3: the old key dropped: its URLs stop, the new key's play.
    const dropped = await withEnv({ PLAYBACK_KEYS: newKey }, before.poster!, IP.berlin);
    await expectError(dropped, 403, 'playback_invalid');
    expect((await withEnv({ PLAYBACK_KEYS: newKey }, after.poster!, IP.berlin)).status).toBe(200);
    // And the suite's own key (another deployment's) opens neither.
    await expectError(await play(after.poster!, IP.berlin), 403, 'playback_invalid');
  });

  it('byte requests do not spend the Management API budget', async () => {
    const media = await gatedMedia();
    const before = (await stats()).total;
    for (const url of [mp4Of(media), hlsOf(media), media.poster!, media.tracks[0]!.url]) {
      const r = await play(url, IP.berlin);
      expect(r.status).toBe(200);
      await r.body?.cancel();
    }
    expect((await stats()).total).toBe(before);
  });

  it('byte requests count for the per-visitor abuse limit', { timeout: 60_000 }, async () => {
    // An address of its own (no geo fixture: unknown place, no proxy), so no other test shares its allowance.
    const ip = '203.0.113.79';
    const id = Object.keys(config.sites[SITE]!.media ?? {})[0]!;
    const url = (await json<MediaResponse>(await api(`/api/sites/${SITE}/media/${id}`, { ip }))).sources[0]!.url;
    let limited: Response | null = null;
    // The limit is 200 a minute in the tests; a run that straddles a period boundary may need twice that.
    for (let i = 0; i < 450 && !limited; i++) {
      const response = await play(url, ip, { method: 'HEAD' });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(200);
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a file of 48 MiB streams through with its length, its bytes in order, and ranges anywhere in it', { timeout: 60_000 }, async () => {
    const created = await sandbox(`/v2/sites/${EUROPE_SITE}/media/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        metadata: { title: 'Large file', publish_start_date: '2020-01-01T00:00:00Z' },
        upload: { method: 'external', source_url: 'http://sandbox.test/cdn/generated/48.bin', mime_type: 'video/mp4' },
      }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json<{ id: string }>();
    const media = await json<MediaResponse>(await api(`/api/sites/${EUROPE_SITE}/media/${id}`, { ip: IP.berlin }));
    const url = media.sources[0]!.url;
    expect(url).toMatch(/\/48\.bin$/);
    const size = 48 * 1024 * 1024;
    const expected = (i: number) => (i * 31 + (i >>> 16)) & 0xff;
    const response = await play(url, IP.berlin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(size));
    // Read as a stream, checking bytes as they pass: nothing here holds the whole file either.
    const reader = response.body!.getReader();
    let at = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      expect([value[0], value[value.length - 1]]).toEqual([expected(at), expected(at + value.length - 1)]);
      at += value.length;
    }
    expect(at).toBe(size);
    const tail = await play(url, IP.berlin, { headers: { range: `bytes=${size - 5}-` } });
    expect(tail.status).toBe(206);
    expect([...await bytes(tail)]).toEqual([0, 1, 2, 3, 4].map((k) => expected(size - 5 + k)));
  });
});
