// Geo: the caller's own location through the budgeted Geo API, cached under a salted hash, with the request.cf
// fallback; named policies decided at the edge for gates, feeds and media.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedResponse, GateResponse, GeoResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import { callerAddress } from '../../worker/http/visitor.ts';
import { api, callsTo, config, EUROPE_SITE, expectError, resetWorld, sandbox, SITE, stats, withConfig } from './helpers.ts';
import { allMedia, isPublic, manualIds, playlistOfType, playlists } from './upstream-direct.ts';

/** The worker with the seed's trending playlist bound to `no-proxies` (the suite's configuration leaves it free). */
function withTrendingBound(trending: string) {
  return (path: string, ip: string) => withConfig((c) => {
    c.sites[SITE]!.playlists = { ...c.sites[SITE]!.playlists, [trending]: 'no-proxies' };
  }, path, ip);
}

const IP = {
  london: '192.0.2.10',
  manchester: '192.0.2.11',
  newYork: '192.0.2.21',
  berlin: '192.0.2.30',
  tokyo: '192.0.2.50',
  vpnLondon: '198.51.100.15',
  torAmsterdam: '198.51.100.13',
  hostingSeattle: '198.51.100.10',
  frankfurtV6: '2001:db8::10',
  /** A documentation address the geo API knows nothing about. */
  unknown: '203.0.113.250',
  private: '10.1.2.3',
};
const GEO_ROUTE = 'ip_lookup';

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}
const geo = (ip: string | null, init: RequestInit = {}) => api('/api/geo', { ...init, ip });
const gate = (policy: string, ip: string) => api(`/api/gate/${policy}`, { ip });

async function faults(body: Record<string, unknown>): Promise<void> {
  const r = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await r.body?.cancel();
}

beforeEach(async () => {
  await resetWorld();
  await faults({});
});

describe('GET /api/geo', () => {
  it('answers the caller\'s normalised location from the Geo API, private to the caller', async () => {
    const response = await geo(IP.london);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const body = await json<GeoResponse>(response);
    expect(body).toEqual({
      country: 'GB', continent: 'EU', region: 'England', city: 'London', timezone: 'Europe/London',
      proxy: { identification: null, type: null }, source: 'geo-api',
    });
    expect((await json<GeoResponse>(await geo(IP.vpnLondon))).proxy).toEqual({ identification: 'vpn', type: 'anonymous' });
    expect((await json<GeoResponse>(await geo(IP.frankfurtV6))).country).toBe('DE');
  });

  it('caches the answer under a salted hash of the address, never the address itself', async () => {
    await json(await geo(IP.berlin));
    const before = callsTo(await stats(), GEO_ROUTE);
    expect(before).toBe(1);
    expect((await json<GeoResponse>(await geo(IP.berlin))).country).toBe('DE');
    expect(callsTo(await stats(), GEO_ROUTE)).toBe(1);
    const { keys } = await env.CACHE.list({ prefix: 'geo:' });
    expect(keys).toHaveLength(1);
    expect(keys[0]!.name).toMatch(/^geo:[0-9a-f]{40}$/);
    const stored = await env.CACHE.get(keys[0]!.name);
    expect(keys[0]!.name).not.toContain(IP.berlin);
    expect(stored).not.toContain(IP.berlin);
  });

  it('falls back to request.cf when the Geo API fails, and to "none" when that knows nothing either', async () => {
    await faults({ outage: true });
    const withCf = await SELF.fetch('http://localhost/api/geo', {
      headers: { 'cf-connecting-ip': IP.tokyo },
      cf: { country: 'JP', continent: 'AS', city: 'Tokyo', region: 'Tokyo', timezone: 'Asia/Tokyo' },
    } as RequestInit);
    expect(await json<GeoResponse>(withCf)).toMatchObject({ country: 'JP', continent: 'AS', source: 'cf' });
    const nothing = await SELF.fetch('http://localhost/api/geo', {
      headers: { 'cf-connecting-ip': IP.tokyo }, cf: { country: 'XX' },
    } as RequestInit);
    expect(await json<GeoResponse>(nothing)).toMatchObject({ country: null, source: 'none' });
  });

  it('never takes request.cf for a stand-in address: it describes the real connection, not the simulated visitor', async () => {
    await faults({ outage: true });
    const standIn = await SELF.fetch('http://localhost/api/geo', {
      headers: { 'x-reelgate-dev-ip': IP.tokyo }, cf: { country: 'DE', continent: 'EU' },
    } as RequestInit);
    expect(await json<GeoResponse>(standIn)).toMatchObject({ country: null, source: 'none' });
  });

  it('decides a country-only policy from request.cf with no lookup, and looks up only for proxy rules', async () => {
    const cf = { country: 'GB', continent: 'EU' };
    const before = callsTo(await stats(), GEO_ROUTE);
    const countryOnly = await SELF.fetch('http://localhost/api/gate/gb-only', {
      headers: { 'cf-connecting-ip': IP.manchester }, cf,
    } as RequestInit);
    expect(await json<GateResponse>(countryOnly)).toMatchObject({ allowed: true, complete: true, country: 'GB' });
    expect(callsTo(await stats(), GEO_ROUTE)).toBe(before);
    const proxyRules = await SELF.fetch('http://localhost/api/gate/no-proxies', {
      headers: { 'cf-connecting-ip': IP.vpnLondon }, cf,
    } as RequestInit);
    expect(await json<GateResponse>(proxyRules)).toMatchObject({ allowed: false, reason: 'proxy_denied', complete: true });
    expect(callsTo(await stats(), GEO_ROUTE)).toBe(before + 1);
  });

  it('never looks up a private address (no free lookups of arbitrary addresses)', async () => {
    await json(await geo(IP.private));
    expect(callsTo(await stats(), GEO_ROUTE)).toBe(0);
    // There is no way to name another address: extra parameters are refused.
    await expectError(await api(`/api/geo?ip=${IP.london}`), 400, 'invalid_request');
  });

  it('ignores x-reelgate-dev-ip unless DEV_MODE is "true"', () => {
    const request = new Request('http://localhost/api/geo', {
      headers: { 'x-reelgate-dev-ip': IP.london, 'cf-connecting-ip': IP.berlin },
    });
    expect(callerAddress(request, { DEV_MODE: 'false' })).toBe(IP.berlin);
    expect(callerAddress(request, {})).toBe(IP.berlin);
    expect(callerAddress(request, { DEV_MODE: 'true' })).toBe(IP.london);
  });
});

describe('GET /api/gate/:policy', () => {
  it('allows a caller the policy admits', async () => {
    const body = await json<GateResponse>(await gate('gb-only', IP.manchester));
    expect(body).toEqual({
      policy: 'gb-only', allowed: true, reason: 'allowed', complete: true, country: 'GB', proxy: { identification: null, type: null },
    });
  });

  it('refuses a denied or not-allowed country, and a continent outside the list', async () => {
    expect(await json<GateResponse>(await gate('not-us', IP.newYork))).toMatchObject({ allowed: false, reason: 'country_denied', country: 'US' });
    expect(await json<GateResponse>(await gate('gb-only', IP.berlin))).toMatchObject({ allowed: false, reason: 'country_not_allowed' });
    expect(await json<GateResponse>(await gate('europe', IP.tokyo))).toMatchObject({ allowed: false, reason: 'continent_not_allowed' });
    expect(await json<GateResponse>(await gate('europe', IP.berlin))).toMatchObject({ allowed: true });
  });

  it('refuses denied proxy identifications and types', async () => {
    expect(await json<GateResponse>(await gate('no-proxies', IP.vpnLondon)))
      .toMatchObject({ allowed: false, reason: 'proxy_denied', proxy: { identification: 'vpn', type: 'anonymous' } });
    expect(await json<GateResponse>(await gate('no-proxies', IP.hostingSeattle))).toMatchObject({ allowed: false, reason: 'proxy_denied' });
    expect(await json<GateResponse>(await gate('no-proxies', IP.torAmsterdam))).toMatchObject({ allowed: false, reason: 'proxy_denied' });
    expect(await json<GateResponse>(await gate('no-proxies', IP.london))).toMatchObject({ allowed: true });
  });

  it('applies the policy\'s rule for an unknown location', async () => {
    expect(await json<GateResponse>(await gate('gb-only', IP.unknown))).toMatchObject({ allowed: false, reason: 'location_unknown', country: null });
    expect(await json<GateResponse>(await gate('not-us', IP.unknown))).toMatchObject({ allowed: true, reason: 'allowed' });
  });

  it('answers 404 for a policy that is not configured, private no-store otherwise', async () => {
    await expectError(await gate('nope', IP.london), 404, 'not_found');
    expect((await gate('gb-only', IP.london)).headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('policies on content', () => {
  it('answers 451 geo_blocked for a feed of a site bound to a policy the caller fails', async () => {
    const playlist = await playlistOfType(EUROPE_SITE, 'manual');
    const path = `/api/sites/${EUROPE_SITE}/playlists/${playlist.id}`;
    const allowed = await api(path, { ip: IP.berlin });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    await expectError(await api(path, { ip: IP.newYork }), 451, 'geo_blocked');
    await expectError(await api(path, { ip: IP.unknown }), 451, 'geo_blocked');
    // Even when the feed is cached for others.
    await expectError(await api(path, { ip: IP.tokyo }), 451, 'geo_blocked');
  });

  it('answers 451 for a playlist bound to a policy', async () => {
    const dynamic = await playlistOfType(SITE, 'dynamic');
    expect(config.sites[SITE]!.playlists![dynamic.id]).toBe('gb-only');
    const path = `/api/sites/${SITE}/playlists/${dynamic.id}`;
    expect((await api(path, { ip: IP.manchester })).status).toBe(200);
    await expectError(await api(path, { ip: IP.berlin }), 451, 'geo_blocked');
    await expectError(await api(path, { ip: IP.unknown }), 451, 'geo_blocked');
  });

  it('answers 451 for a feed under a denied country, and under a denied proxy type', async () => {
    const search = await playlistOfType(SITE, 'search');
    expect(config.sites[SITE]!.playlists![search.id]).toBe('not-us');
    const searchPath = `/api/sites/${SITE}/playlists/${search.id}`;
    expect((await api(searchPath, { ip: IP.london })).status).toBe(200);
    expect((await api(searchPath, { ip: IP.unknown })).status).toBe(200); // not-us lets unknown locations through
    await expectError(await api(searchPath, { ip: IP.newYork }), 451, 'geo_blocked');

    // The seed's trending playlist (its second dynamic one), bound to a policy refusing proxies.
    const trending = (await playlists(SITE)).filter((p) => p.playlist_type === 'dynamic')
      .sort((a, b) => a.created.localeCompare(b.created))[1]!;
    const trendingPath = `/api/sites/${SITE}/playlists/${trending.id}`;
    const noProxies = withTrendingBound(trending.id);
    expect((await noProxies(trendingPath, IP.newYork)).status).toBe(200);
    await expectError(await noProxies(trendingPath, IP.hostingSeattle), 451, 'geo_blocked');
    await expectError(await noProxies(trendingPath, IP.torAmsterdam), 451, 'geo_blocked');
  });

  it('a bound playlist with no tag or parameter rule (trending) binds every media of its site, past its limit', async () => {
    const trending = (await playlists(SITE)).filter((p) => p.playlist_type === 'dynamic')
      .sort((a, b) => a.created.localeCompare(b.created))[1]!;
    const noProxies = withTrendingBound(trending.id);
    const shown = new Set((await (await noProxies(`/api/sites/${SITE}/playlists/${trending.id}?page_length=50`, IP.newYork))
      .json<FeedResponse>()).items.map((item) => item.id));
    // A ready, public media its feed does not show (trending shows 10): bound all the same, by the playlist's rules.
    const beyond = (await allMedia(SITE)).find((m) => isPublic(m) && !shown.has(m.id))!;
    expect(beyond).toBeDefined();
    await expectError(await noProxies(`/api/sites/${SITE}/media/${beyond.id}`, IP.torAmsterdam), 451, 'geo_blocked');
    // London: allowed by every policy of the site (gb-only, not-us, no-proxies), whichever binds it.
    const allowed = await noProxies(`/api/sites/${SITE}/media/${beyond.id}`, IP.london);
    expect(allowed.status).toBe(200);
    // Bound, so private and named by the worker's playback URLs only.
    expect(allowed.headers.get('cache-control')).toMatch(/private/);
    expect((await allowed.json<MediaResponse>()).sources.every((s) => s.url.startsWith('/api/play/'))).toBe(true);
  });

  it('refuses a media bound to a policy (451) and leaves it out of feeds for that caller', async () => {
    const [mediaId] = Object.keys(config.sites[SITE]!.media!);
    const manual = await playlistOfType(SITE, 'manual');
    expect(manualIds(manual)).toContain(mediaId);
    expect((await api(`/api/sites/${SITE}/media/${mediaId}`, { ip: IP.london })).status).toBe(200);
    await expectError(await api(`/api/sites/${SITE}/media/${mediaId}`, { ip: IP.vpnLondon }), 451, 'geo_blocked');
    await expectError(await api(`/api/sites/${SITE}/media/${mediaId}`, { ip: IP.hostingSeattle }), 451, 'geo_blocked');
    const forClean = await json<FeedResponse>(await api(`/api/sites/${SITE}/playlists/${manual.id}`, { ip: IP.london }));
    const forVpn = await json<FeedResponse>(await api(`/api/sites/${SITE}/playlists/${manual.id}`, { ip: IP.vpnLondon }));
    expect(forClean.items.map((i) => i.id)).toContain(mediaId);
    expect(forVpn.items.map((i) => i.id)).not.toContain(mediaId);
    expect(forVpn.total).toBe(forClean.total - 1);
  });
});
