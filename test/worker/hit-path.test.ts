// The hot path: what a cache HIT no longer redoes must still come out as before. A feed of a site that binds
// nothing is rendered once and sent again (worker/cache/rendered.ts) only while its entry, the configuration and the
// published subset are unchanged; /api/geo's ETag comes from its cache entry. The test configuration binds policies on
// every site, so the unbound site here is the worker called with a configuration of its own.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearMemoryCache } from '../../worker/cache/cached.ts';
import type { Envelope } from '../../worker/cache/envelope.ts';
import { clearRenderedAnswers } from '../../worker/cache/rendered.ts';
import worker from '../../worker/index.ts';
import type { FeedResponse } from '../../worker/contract/public-api.ts';
import { api, DEFAULT_IP, resetWorld, sandbox, SITE } from './helpers.ts';
import { manualIds, allMedia, playlists, typedPlaylist } from './upstream-direct.ts';

/** The test configuration with SITE bound to nothing, and the custom params allowlist given. */
function unboundConfig(allowlist = ['series', 'episode']): string {
  const raw = JSON.parse(env.REELGATE_CONFIG) as Record<string, unknown> & { sites: Record<string, unknown> };
  return JSON.stringify({ ...raw, sites: { ...raw.sites, [SITE]: {} }, custom_params_allowlist: allowlist });
}

/** Moves a cached entry's stored-at time back, as if it had been written `seconds` ago. */
async function ageEntry(key: string, seconds: number): Promise<void> {
  const entry = await env.CACHE.get<Envelope<unknown>>(key, 'json');
  expect(entry, key).not.toBeNull();
  await env.CACHE.put(key, JSON.stringify({ ...entry!, storedAt: entry!.storedAt - seconds * 1000 }), { expirationTtl: 3600 });
  clearMemoryCache();
}

async function call(path: string, reelgateConfig: string, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, { headers: { 'x-reelgate-dev-ip': DEFAULT_IP, ...headers } });
  const response = await worker.fetch(request, { ...env, REELGATE_CONFIG: reelgateConfig }, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return new Response(response.status === 304 ? null : text, response);
}

/** A manual playlist of SITE listing a ready media whose publish window opens later, and that media's start. */
async function playlistWithScheduled(): Promise<{ playlist: string; media: string; start: number }> {
  const now = Date.now();
  const byId = new Map((await allMedia(SITE)).map((m) => [m.id, m]));
  for (const p of (await playlists(SITE)).filter((x) => x.playlist_type === 'manual')) {
    const typed = await typedPlaylist(SITE, p.id, 'manual');
    for (const id of manualIds(typed)) {
      const m = byId.get(id);
      const start = m?.metadata.publish_start_date ? Date.parse(m.metadata.publish_start_date) : NaN;
      if (m?.status === 'ready' && start > now && !m.metadata.publish_end_date) return { playlist: p.id, media: id, start };
    }
  }
  throw new Error('the seed has no manual playlist with a scheduled media');
}

beforeEach(async () => {
  await resetWorld();
  clearRenderedAnswers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a feed of a site that binds nothing', () => {
  it('sends the same body and ETag on every HIT, honours If-None-Match, and renders again for another page', async () => {
    const { playlist } = await playlistWithScheduled();
    const path = `/api/sites/${SITE}/playlists/${playlist}?page_length=3`;
    const cfg = unboundConfig();
    const first = await call(path, cfg);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toMatch(/^public/);
    const firstText = await first.text();
    // Sent again from what was rendered, the same each time.
    for (let i = 0; i < 3; i++) {
      const again = await call(path, cfg);
      expect(again.headers.get('x-reelgate-cache')).toBe('HIT');
      expect(await again.text()).toBe(firstText);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    }
    // Rendered afresh, the answer is the same text with the same tag.
    clearRenderedAnswers();
    const fresh = await call(path, cfg);
    expect(await fresh.text()).toBe(firstText);
    expect(fresh.headers.get('etag')).toBe(first.headers.get('etag'));
    const notModified = await call(path, cfg, { 'if-none-match': first.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(first.headers.get('etag'));
    const page2 = await call(`/api/sites/${SITE}/playlists/${playlist}?page_length=3&page=2`, cfg);
    const body2 = await page2.json<FeedResponse>();
    expect(body2.page).toBe(2);
    expect(page2.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('shows a media the platform starts delivering once the feed is refreshed, though the answer before it was held', async () => {
    // Publish windows are the platform's to apply: a scheduled media is in no delivered feed until it is published,
    // and then in the feed's next load (its fresh window bounds the wait, as for any other change).
    const { playlist, media } = await playlistWithScheduled();
    const path = `/api/sites/${SITE}/playlists/${playlist}?page_length=50`;
    const cfg = unboundConfig();
    const before = await call(path, cfg);
    expect((await before.json<FeedResponse>()).items.map((i) => i.id)).not.toContain(media);
    const held = await call(path, cfg);
    expect(held.headers.get('x-reelgate-cache')).toBe('HIT');
    const published = await sandbox(`/v2/sites/${SITE}/media/${media}/`, {
      method: 'PATCH', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { publish_start_date: new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z') } }),
    });
    expect(published.status, await published.clone().text()).toBe(200);
    await published.body?.cancel();
    // Still held while the entry is fresh: nothing the worker knows has changed.
    expect((await (await call(path, cfg)).json<FeedResponse>()).items.map((i) => i.id)).not.toContain(media);
    await ageEntry(`feed:${SITE}:${playlist}`, 31);
    // The stale answer goes out while the entry is refreshed in the background; the next answer has the media.
    expect((await call(path, cfg)).headers.get('x-reelgate-cache')).toBe('STALE');
    const after = await call(path, cfg);
    expect(after.status).toBe(200);
    expect((await after.json<FeedResponse>()).items.map((i) => i.id)).toContain(media);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('follows a new custom params allowlist at once', async () => {
    const { playlist } = await playlistWithScheduled();
    const path = `/api/sites/${SITE}/playlists/${playlist}?page_length=50`;
    const withSeries = await call(path, unboundConfig(['series']));
    const items = (await withSeries.json<FeedResponse>()).items;
    expect(items.some((i) => 'series' in i.custom_params)).toBe(true);
    expect(items.every((i) => Object.keys(i.custom_params).every((k) => k === 'series'))).toBe(true);
    const without = await call(path, unboundConfig([]));
    expect((await without.json<FeedResponse>()).items.every((i) => Object.keys(i.custom_params).length === 0)).toBe(true);
    expect(without.headers.get('etag')).not.toBe(withSeries.headers.get('etag'));
  });
});

describe('/api/geo', () => {
  it('tags the answer by its cache entry: the same tag on every HIT, 304 for it, another for another location', async () => {
    const first = await api('/api/geo');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = await first.json<{ source: string }>();
    expect(body.source).toBe('geo-api');
    const again = await api('/api/geo');
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.json()).toEqual(body);
    const notModified = await api('/api/geo', { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    await notModified.body?.cancel();
    // London (demo/sandbox/geo-fixtures.ts) is elsewhere: another body, another tag.
    const elsewhere = await api('/api/geo', { ip: '192.0.2.10' });
    const other = await elsewhere.json();
    expect(other).not.toEqual(body);
    expect(elsewhere.headers.get('etag')).not.toBe(etag);
  });
});

// A visitor's location can change only once its entry is past its fresh window (no purge names geo keys), so
// an isolate holds it in memory until then; catalog entries, which purges name, are still asked of KV again every
// `cache.memory_ms`, so a purge elsewhere reaches this isolate as soon as before.
describe('what a HIT reads from KV', () => {
  /** The test configuration with the memory layer's window at 0: every catalog read goes to KV. */
  function noMemoryConfig(): string {
    const raw = JSON.parse(env.REELGATE_CONFIG) as Record<string, unknown> & { cache?: Record<string, unknown> };
    return JSON.stringify({ ...raw, cache: { ...raw.cache, memory_ms: 0 } });
  }

  /** The worker's KV with its reads counted by key prefix (`geo`, `feed`, …). */
  function countingEnv(reads: Map<string, number>): typeof env {
    const kv = env.CACHE;
    const CACHE = new Proxy(kv, {
      get(target, name) {
        if (name === 'get') {
          return (key: string, ...rest: unknown[]) => {
            const prefix = key.split(':')[0]!;
            reads.set(prefix, (reads.get(prefix) ?? 0) + 1);
            return (target.get as (...args: unknown[]) => unknown)(key, ...rest);
          };
        }
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { ...env, CACHE, REELGATE_CONFIG: noMemoryConfig() };
  }

  async function ask(path: string, withEnv: typeof env): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`http://localhost${path}`, { headers: { 'x-reelgate-dev-ip': DEFAULT_IP } }), withEnv, ctx);
    await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return response;
  }

  it('reads a located visitor once while the entry is fresh, and a catalog entry on every request past memory_ms', async () => {
    const reads = new Map<string, number>();
    const counted = countingEnv(reads);
    const first = await ask('/api/geo', counted);
    expect(first.status).toBe(200);
    const afterFirst = reads.get('geo') ?? 0;
    for (let i = 0; i < 5; i++) expect((await ask('/api/geo', counted)).status).toBe(200);
    expect(reads.get('geo') ?? 0).toBe(afterFirst);

    const playlist = (await playlists(SITE)).find((p) => p.playlist_type === 'manual')!;
    const path = `/api/sites/${SITE}/playlists/${playlist.id}`;
    expect((await ask(path, counted)).status).toBe(200);
    const feedReads = reads.get('feed') ?? 0;
    const hit = await ask(path, counted);
    expect(hit.headers.get('x-reelgate-cache')).toBe('HIT');
    expect(reads.get('feed') ?? 0).toBeGreaterThan(feedReads);
  });
});
