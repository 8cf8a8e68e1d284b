// The KV cache in front of the upstream: fresh hits make no upstream call, stale entries are answered at once and
// refreshed in the background by one refresher, and stale data stands in when the upstream fails.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearMemoryCache } from '../../worker/cache/cached.ts';
import type { Envelope } from '../../worker/cache/envelope.ts';
import { api, boundPlaylists, callsTo, config, eventually, expectError, resetWorld, sandbox, SITE, stats } from './helpers.ts';
import { playlistOfType, players } from './upstream-direct.ts';

const PLAYER_ROUTE = 'players/:player';

async function setFaults(faults: Record<string, unknown>): Promise<void> {
  const response = await sandbox('/_sandbox/faults', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults),
  });
  expect(response.ok).toBe(true);
  await response.body?.cancel();
}

/** Moves a cached entry's stored-at time back, as if it had been written `seconds` ago. */
async function age(key: string, seconds: number): Promise<void> {
  await eventually(async () => (await env.CACHE.get(key)) !== null); // written in the background (waitUntil)
  const entry = await env.CACHE.get<Envelope<unknown>>(key, 'json');
  expect(entry, key).not.toBeNull();
  await env.CACHE.put(key, JSON.stringify({ ...entry!, storedAt: entry!.storedAt - seconds * 1000 }), { expirationTtl: 3600 });
  clearMemoryCache();
}

let playerId: string;
let otherPlayerId: string;
beforeEach(async () => {
  await resetWorld();
  [playerId, otherPlayerId] = (await players(SITE)).map((p) => p.id) as [string, string];
  await setFaults({});
});

describe('fresh window', () => {
  it('a second call is a HIT with no new upstream call, same body and ETag', async () => {
    const first = await api(`/api/sites/${SITE}/players/${playerId}`);
    expect(first.headers.get('x-reelgate-cache')).toBe('MISS');
    const body = await first.text();
    const before = await stats();
    const second = await api(`/api/sites/${SITE}/players/${playerId}`);
    expect(second.headers.get('x-reelgate-cache')).toBe('HIT');
    expect(await second.text()).toBe(body);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await stats()).total).toBe(before.total);
    // A hit from KV (not only from this isolate's memory) is a hit too.
    clearMemoryCache();
    const third = await api(`/api/sites/${SITE}/players/${playerId}`);
    expect(third.headers.get('x-reelgate-cache')).toBe('HIT');
    expect((await stats()).total).toBe(before.total);
  });

  it('answers 304 to If-None-Match, with browser caching and timing headers', async () => {
    const first = await api(`/api/sites/${SITE}/players/${playerId}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(first.headers.get('server-timing')).toMatch(/total;dur=\d+/);
    const again = await api(`/api/sites/${SITE}/players/${playerId}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const changed = await api(`/api/sites/${SITE}/players/${playerId}`, { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
  });

  it('remembers "not found" briefly, so unknown ids cannot drain the budget', async () => {
    await expectError(await api(`/api/sites/${SITE}/players/zzzzzzzz`), 404, 'not_found');
    const before = await stats();
    await expectError(await api(`/api/sites/${SITE}/players/zzzzzzzz`), 404, 'not_found');
    expect((await stats()).total).toBe(before.total);
  });
});

describe('stale window', () => {
  it('answers STALE at once and refreshes in the background with one upstream call', async () => {
    const first = await api(`/api/sites/${SITE}/players/${playerId}`);
    const body = await first.text();
    const key = `player:${SITE}:${playerId}`;
    await age(key, 31); // fresh is 30 s in the test configuration
    const storedAt = (await env.CACHE.get<Envelope<unknown>>(key, 'json'))!.storedAt;
    const before = callsTo(await stats(), PLAYER_ROUTE);

    const stale = await Promise.all(Array.from({ length: 5 }, () => api(`/api/sites/${SITE}/players/${playerId}`)));
    for (const response of stale) {
      expect(response.status).toBe(200);
      expect(response.headers.get('x-reelgate-cache')).toBe('STALE');
      expect(Number(response.headers.get('age'))).toBeGreaterThanOrEqual(31);
      expect(await response.text()).toBe(body);
    }
    await eventually(async () => (await env.CACHE.get<Envelope<unknown>>(key, 'json'))!.storedAt > storedAt);
    expect(callsTo(await stats(), PLAYER_ROUTE)).toBe(before + 1);
    const after = await api(`/api/sites/${SITE}/players/${playerId}`);
    expect(after.headers.get('x-reelgate-cache')).toBe('HIT');
  });

  it('serves stale data when the upstream is down (stale-if-error), and a 502 without calling again when it has none', async () => {
    const first = await api(`/api/sites/${SITE}/players/${playerId}`);
    const body = await first.text();
    await age(`player:${SITE}:${playerId}`, 700); // past fresh and stale: only an error may bring it back
    await setFaults({ outage: true });
    const during = await api(`/api/sites/${SITE}/players/${playerId}`);
    expect(during.status).toBe(200);
    expect(during.headers.get('x-reelgate-cache')).toBe('STALE');
    expect(await during.text()).toBe(body);

    // With nothing cached, the caller gets an error: the outage answer said "retry in 30 s", so the budget does not
    // call the platform again before then, and says it is unavailable, with that Retry-After.
    const before = (await stats()).total;
    const response = await api(`/api/sites/${SITE}/players/${otherPlayerId}`);
    await expectError(response, 502, 'upstream_unavailable');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(25);
    expect((await stats()).total).toBe(before);
  });

  it('answers upstream_unavailable when the upstream fails and nothing is cached', async () => {
    await setFaults({ error_rate: 1 });
    const response = await api(`/api/sites/${SITE}/players/${otherPlayerId}`);
    expect([502, 504]).toContain(response.status);
    await expectError(response, response.status, 'upstream_unavailable');
  });

  it('serves stale data when the budget has no slot for a refresh', async () => {
    const first = await api(`/api/sites/${SITE}/players/${playerId}`);
    const body = await first.text();
    await age(`player:${SITE}:${playerId}`, 700);
    await setFaults({ force_429: true });
    const during = await api(`/api/sites/${SITE}/players/${playerId}`);
    expect(during.status).toBe(200);
    expect(during.headers.get('x-reelgate-cache')).toBe('STALE');
    expect(await during.text()).toBe(body);
  });
});

describe('feed refresh', () => {
  it('a feed miss costs two Management calls and one delivery call; its refresh one of each, the type being known', async () => {
    const playlist = await playlistOfType(SITE, 'manual');
    expect(config.sites[SITE]!.playlists?.[playlist.id]).toBeUndefined();
    const path = `/api/sites/${SITE}/playlists/${playlist.id}`;
    const ip = {};
    // The site's bound playlists are read for membership by every feed request: held first, they cost nothing here.
    await boundPlaylists(SITE);
    const before = await stats();
    expect((await api(path, ip)).headers.get('x-reelgate-cache')).toBe('MISS');
    const afterMiss = await stats();
    const v2 = (s: Awaited<ReturnType<typeof stats>>) => callsTo(s, 'GET /v2/');
    // The head (the untyped playlist for its type, then the typed one for its rules); the items from delivery.
    expect(v2(afterMiss) - v2(before)).toBe(2);
    expect(afterMiss.delivery_calls - before.delivery_calls).toBe(1);
    await age(`feed:${SITE}:${playlist.id}`, 31);
    expect((await api(path, ip)).headers.get('x-reelgate-cache')).toBe('STALE');
    await eventually(async () => (await stats()).delivery_calls > afterMiss.delivery_calls);
    const afterRefresh = await stats();
    expect(v2(afterRefresh) - v2(afterMiss)).toBe(1);
    expect(afterRefresh.delivery_calls - afterMiss.delivery_calls).toBe(1);
    expect(afterRefresh.calls['GET /v2/sites/:site/playlists/:playlist/']).toBe(afterMiss.calls['GET /v2/sites/:site/playlists/:playlist/']);
  });
});

describe('cached projections', () => {
  it('leave with the allowlist as configured now, even if cached under an older one', async () => {
    const { allMedia, isPublic } = await import('./upstream-direct.ts');
    const media = (await allMedia(SITE)).find((m) => isPublic(m))!;
    const path = `/api/sites/${SITE}/media/${media.id}`;
    expect((await api(path)).status).toBe(200);
    const key = `media:${SITE}:${media.id}`;
    await eventually(async () => (await env.CACHE.get(key)) !== null);
    const entry = (await env.CACHE.get<Envelope<{ custom_params: Record<string, string> }>>(key, 'json'))!;
    if (!entry.found) throw new Error('expected a found entry');
    entry.value.custom_params = { ...entry.value.custom_params, internal_note: 'not for the public' };
    await env.CACHE.put(key, JSON.stringify(entry), { expirationTtl: 3600 });
    clearMemoryCache();
    const response = await api(path);
    expect(response.headers.get('x-reelgate-cache')).toBe('HIT');
    const text = await response.text();
    expect(text).not.toContain('internal_note');
  });
});
