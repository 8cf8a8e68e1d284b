// Sealed origin (worker/signing/, worker/docs/sealed-origin.md): on the sandbox's signing site, whose delivery host
// refuses unsigned, altered and expired URLs, the worker signs every platform URL it hands out about content under no
// policy and every byte fetch of content under one; nothing of the platform's opens without a signature only the
// worker can make; and the secret never leaves it.
import { createExecutionContext, env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import worker from '../../worker/index.ts';
import { api, config, eventually, expectError, resetWorld, sandbox, SITE } from './helpers.ts';
import { allMedia, isPublic, playlists, textTracks } from './upstream-direct.ts';
import type { Media, MediaRenditionList } from '../../worker/contract/v2-types.ts';
import { signUrl } from '../../worker/signing/schemes.ts';
import { getConfig } from '../../worker/config.ts';
import { RequestContext } from '../../worker/http/context.ts';
import { renderPage } from '../../worker/render/page.ts';
import { resourceSource } from '../../worker/render/resource-source.ts';

type SigningConfig = { url_signing?: { secret: string }; media?: Record<string, string> };
const SEALED = Object.entries(config.sites as Record<string, SigningConfig>).find(([, s]) => s.url_signing)![0];
const GATED = Object.keys((config.sites as Record<string, SigningConfig>)[SEALED]!.media ?? {})[0]!;
const SECRET = env.SIGNED_SITE_SECRET!;
/** Berlin (DE, Europe) and New York (US): the `europe` policy allows the first, refuses the second. */
const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';

const get = (url: string, init?: RequestInit) => env.SANDBOX.fetch(url, init);
/** A URL without its signature: what anyone who saw one answer, or knows a media id, can ask for. */
function stripped(url: string): string {
  const plain = new URL(url);
  for (const name of ['exp', 'sig', 'token']) plain.searchParams.delete(name);
  return plain.href;
}

/** Every text the suite received, to check no secret is in any of it. */
const received: string[] = [];
async function textOf(response: Response): Promise<string> {
  const text = await response.clone().text();
  received.push(text, [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n'));
  return text;
}
async function json<T>(response: Response): Promise<T> {
  return JSON.parse(await textOf(response)) as T;
}

/** The delivery URLs of a media answer: its sources, tracks, poster and pictures. */
function urlsOf(media: MediaResponse): string[] {
  return [media.poster, media.thumbnail, ...media.thumbnails.map((t) => t.url), ...media.sources.map((s) => s.url),
    ...media.tracks.map((t) => t.url)].filter((u): u is string => typeof u === 'string');
}

let logs: string[] = [];
beforeEach(async () => {
  await resetWorld();
  logs = [];
  for (const method of ['log', 'error', 'warn', 'info'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const text of [...received, ...logs]) expect(text).not.toContain(SECRET);
});

async function publicMedia(): Promise<Media[]> {
  return (await allMedia(SEALED)).filter((m) => isPublic(m) && m.status === 'ready' && m.id !== GATED);
}

describe('sealed origin: answers about content under no policy', () => {
  it('names every platform URL signed, each opens, and the same URL without its signature is refused', async () => {
    const candidates = await publicMedia();
    expect(candidates.length).toBeGreaterThan(2);
    for (const { id } of candidates.slice(0, 3)) {
      const response = await api(`/api/sites/${SEALED}/media/${id}`);
      expect(response.status).toBe(200);
      // Under no policy the answer is everyone's: shareable, as for any site.
      expect(response.headers.get('cache-control')).toMatch(/^public, max-age=/);
      const media = await json<MediaResponse>(response);
      const urls = urlsOf(media);
      expect(urls.length).toBeGreaterThan(3);
      for (const url of urls) {
        const params = new URL(url).searchParams;
        expect(params.has('token') || (params.has('exp') && params.has('sig')), url).toBe(true);
        const opened = await get(url, { headers: { range: 'bytes=0-99' } });
        expect([200, 206], url).toContain(opened.status);
        await opened.body?.cancel();
        const bare = await get(stripped(url));
        expect(bare.status, stripped(url)).toBe(403);
        await bare.body?.cancel();
      }
    }
  });

  it('signs a feed\'s pictures with expiries rounded to a window, so answers within it are the same', async () => {
    const manual = (await playlists(SEALED)).find((p) => p.playlist_type === 'manual')!;
    const before = Date.now();
    const first = await api(`/api/sites/${SEALED}/playlists/${manual.id}`);
    const second = await api(`/api/sites/${SEALED}/playlists/${manual.id}`);
    const after = Date.now();
    const [a, b] = [await json<FeedResponse>(first), await json<FeedResponse>(second)];
    expect(a.items.length).toBeGreaterThan(0);
    // Within one 5-minute window the two answers are the same (they cannot be when a window ends between them).
    if (Math.floor(before / 300_000) === Math.floor(after / 300_000)) {
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(b).toEqual(a);
    }
    // The one item under a policy (if the playlist lists it) is named by a playback URL instead.
    const open = a.items.filter((item) => item.id !== GATED);
    expect(open.length).toBeGreaterThan(0);
    for (const item of open) {
      for (const url of [item.thumbnail!, ...item.thumbnails.map((t) => t.url)]) {
        const exp = Number(JSON.parse(atob(new URL(url).searchParams.get('token')!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).exp);
        // At least the configured lifetime away (60 minutes by default), on a 5-minute boundary.
        expect(exp % 300).toBe(0);
        expect(exp).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 3600);
        const opened = await get(url);
        expect(opened.status, url).toBe(200);
        await opened.body?.cancel();
      }
    }
  });

  it('the cache keeps what the platform said (unsigned URLs): signatures are added when answering', async () => {
    const { id } = (await publicMedia())[0]!;
    await (await api(`/api/sites/${SEALED}/media/${id}`)).body?.cancel();
    // The entry is written in the background (ctx.waitUntil).
    let stored: string | null = null;
    await eventually(async () => (stored = await env.CACHE.get(`media:${SEALED}:${id}`)) !== null);
    expect(stored).toContain('poster.jpg');
    expect(stored).not.toMatch(/[?&](sig|token)=/);
  });
});

describe('sealed origin: content under a policy', () => {
  it('plays through the worker for an allowed visitor, every byte fetch signed by the worker', async () => {
    const response = await api(`/api/sites/${SEALED}/media/${GATED}`, { ip: BERLIN });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const media = await json<MediaResponse>(response);
    const urls = urlsOf(media);
    expect(urls.every((u) => u.startsWith('/api/play/'))).toBe(true);
    const mp4 = media.sources.find((s) => s.type === 'video/mp4')!;
    const bytes = await api(mp4.url, { ip: BERLIN, headers: { range: 'bytes=0-1023' } });
    expect(bytes.status).toBe(206);
    await bytes.body?.cancel();
    const hls = media.sources.find((s) => s.type === 'application/vnd.apple.mpegurl');
    expect(hls).toBeDefined();
    const master = await textOf(await api(hls!.url, { ip: BERLIN }));
    expect(master).toMatch(/^#EXTM3U/);
    // No platform URL and no signature of the platform's reaches the player: every URI is the worker's.
    expect(master).not.toMatch(/[?&](exp|sig|token)=/);
    const variantPath = master.split('\n').find((line) => line && !line.startsWith('#'))!;
    const variant = await textOf(await api(variantPath, { ip: BERLIN }));
    const segmentPath = variant.split('\n').find((line) => line && !line.startsWith('#'))!;
    const segment = await api(segmentPath, { ip: BERLIN });
    expect(segment.status).toBe(200);
    await segment.body?.cancel();
    for (const track of media.tracks) {
      const file = await api(track.url, { ip: BERLIN });
      expect(file.status, track.url).toBe(200);
      const text = await textOf(file);
      // The storyboard's images, which the platform names signed, are each a playback URL of the worker's.
      if (track.kind === 'thumbnails') expect(text).toMatch(/\n\/api\/play\/[^\n]+#xywh=/);
    }
    const poster = await api(media.poster!, { ip: BERLIN });
    expect(poster.status).toBe(200);
    await poster.body?.cancel();
  });

  it('is refused to a visitor the policy refuses', async () => {
    await expectError(await api(`/api/sites/${SEALED}/media/${GATED}`, { ip: NEW_YORK }), 451, 'geo_blocked');
  });
});

describe('sealed origin: pages the worker renders', () => {
  it('names signed platform URLs, and absolute ones only, in the cards and the JSON-LD a crawler reads', async () => {
    const manual = (await playlists(SEALED)).find((p) => p.playlist_type === 'manual')!;
    const page = new Response(`<!doctype html><html><head><title>t</title></head><body><reel-playlist site="${SEALED}" `
      + `playlist="${manual.id}" page-size="20"></reel-playlist></body></html>`, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const request = new Request('http://localhost/news', { headers: { 'x-reelgate-dev-ip': BERLIN } });
    const html = await textOf(await renderPage(page, resourceSource(new RequestContext(request, env, createExecutionContext(), getConfig(env)))));
    const graph = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!)['@graph'] as Array<{ thumbnailUrl?: string[] }>;
    const urls = graph.flatMap((video) => video.thumbnailUrl ?? []);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url, url).toMatch(/^https?:\/\//);
      if (url.startsWith('http://sandbox.test/')) {
        expect(new URL(url).searchParams.has('token'), url).toBe(true);
        const opened = await get(url);
        expect(opened.status, url).toBe(200);
        await opened.body?.cancel();
      } else {
        // Content under a policy: the worker's own playback URL, made absolute.
        expect(url).toMatch(/^http:\/\/localhost\/api\/play\//);
      }
    }
    // The cards' pictures are the same signed URLs.
    for (const src of [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))) {
      if (src.startsWith('http://sandbox.test/')) expect(new URL(src).searchParams.has('token'), src).toBe(true);
    }
  });
});

describe('sealed origin: nothing around the worker', () => {
  it('every platform URL derived from a public media id, or seen in a past answer, is refused unsigned, wrongly signed or expired', async () => {
    const all = await allMedia(SEALED);
    expect(all.length).toBeGreaterThan(5);
    const base = 'http://sandbox.test';
    const derived: string[] = [];
    for (const m of all) {
      derived.push(`${base}/manifests/${m.id}.m3u8`, `${base}/v2/media/${m.id}/poster.jpg`,
        `${base}/v2/media/${m.id}/poster.jpg?width=720`, `${base}/strips/${m.id}-120.vtt`, `${base}/strips/${m.id}-120.svg`,
        `${base}/videos/${m.id}.mp4`, `${base}/thumbs/${m.id}-720.jpg`);
      // What the Management API names (a team's servers see these): every rendition and track.
      const renditions = await sandbox(`/v2/sites/${SEALED}/media/${m.id}/media_renditions/`,
        { headers: { authorization: `Bearer ${env.API_SECRET}` } });
      if (renditions.ok) {
        for (const r of (await renditions.json<MediaRenditionList>()).media_renditions) {
          if (r.delivery_url) derived.push(r.delivery_url);
        }
      } else {
        await renditions.body?.cancel();
      }
      for (const t of await textTracks(SEALED, m.id)) if (t.delivery_url) derived.push(t.delivery_url);
    }
    const past = Math.floor(Date.now() / 1000) - 60;
    for (const url of derived) {
      // Unsigned, signed with the right secret but expired, unexpired but signed with another secret.
      for (const attempt of [url, (await signUrl(new URL(url), past, SECRET)).href,
        (await signUrl(new URL(url), past + 7200, `${SECRET}x`)).href]) {
        const response = await get(attempt);
        // Refused before anything else, whether or not the file exists.
        expect(response.status, attempt).toBe(403);
        await response.body?.cancel();
      }
    }
  });
});

describe('sealed origin: operators', () => {
  type AnyEnv = typeof env | Record<string, unknown>;
  const adminCheck = (e: AnyEnv = env) => worker.fetch(new Request(`http://localhost/admin/sites/${SEALED}/url-signing`,
    { headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` } }), e as unknown as typeof env, { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext);

  it('the admin check reports the secret accepted and the origin sealed, and tells when enforcement is off', async () => {
    const sealed = await json<{ secret_accepted: boolean; enforced: boolean; probes: Array<{ signed: number; unsigned: number; url: string }> }>(await adminCheck());
    expect(sealed).toMatchObject({ secret_accepted: true, enforced: true });
    for (const probe of sealed.probes) expect(probe.url).not.toMatch(/[?&](sig|token|exp)=/);
    const off = await sandbox(`/_sandbox/sites/${SEALED}/url-signing`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"enforce":false}' });
    expect(off.ok).toBe(true);
    await off.body?.cancel();
    expect(await json(await adminCheck())).toMatchObject({ secret_accepted: true, enforced: false });
  });

  it('a wrong secret is named by the check, and by the byte route when the platform refuses the worker\'s signature', async () => {
    const wrong = { ...env, SIGNED_SITE_SECRET: `${SECRET}-not-it` };
    expect(await json(await adminCheck(wrong))).toMatchObject({ secret_accepted: false });
    const media = await json<MediaResponse>(await api(`/api/sites/${SEALED}/media/${GATED}`, { ip: BERLIN }));
    // A byte range of the MP4: never from the edge cache, always fetched (and so signed) anew.
    const mp4 = media.sources.find((s) => s.type === 'video/mp4')!;
    const refused = await worker.fetch(new Request(`http://localhost${mp4.url}`,
      { headers: { 'x-reelgate-dev-ip': BERLIN, range: 'bytes=0-99' } }),
      wrong as unknown as typeof env, { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext);
    await expectError(refused, 502, 'upstream_signature_refused');
    expect(logs.some((line) => line.includes('url_signing') && line.includes(SEALED))).toBe(true);
  });

  it('a missing secret is a named 503 for that site only, never a raw 500', async () => {
    const missing: Record<string, unknown> = { ...env };
    delete missing.SIGNED_SITE_SECRET;
    const { id } = (await publicMedia())[0]!;
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const refused = await worker.fetch(new Request(`http://localhost/api/sites/${SEALED}/media/${id}`,
      { headers: { 'x-reelgate-dev-ip': BERLIN } }), missing as unknown as typeof env, ctx);
    await expectError(refused, 503, 'url_signing_unconfigured');
    expect(logs.some((line) => line.includes('SIGNED_SITE_SECRET'))).toBe(true);
    // Another site, which signs nothing, is answered as ever.
    const open = (await allMedia(SITE)).find((m) => isPublic(m) && m.status === 'ready')!;
    const fine = await worker.fetch(new Request(`http://localhost/api/sites/${SITE}/media/${open.id}`,
      { headers: { 'x-reelgate-dev-ip': BERLIN } }), missing as unknown as typeof env, ctx);
    expect(fine.status).toBe(200);
    await textOf(fine);
  });
});
