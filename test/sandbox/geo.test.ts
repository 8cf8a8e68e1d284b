// The geo route: its key, fixed answers for the documentation ranges (quirks included), nulls elsewhere, 400 for
// what is not an address.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { PROXY_IDENTIFICATIONS, PROXY_TYPES } from '../../worker/contract/geo-types.ts';
import { visitorNetwork } from '../../worker/upstream/index.ts';
import { catalog, errorShape, GEO_KEY, ORIGIN, reset } from './helpers.ts';

beforeEach(() => reset({ rate_limit_per_minute: 10_000 }));

const lookup = (ip: string, headers: Record<string, string> = { 'x-auth-key': GEO_KEY }) =>
  env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/${ip}`, { headers });

const GEO_MEMBERS = [
  'area_codes', 'city', 'city_code', 'city_confidence_percentage', 'connection_speed', 'continent_code', 'country',
  'country_code', 'country_confidence_percentage', 'gmt_offset', 'in_dst', 'latitude', 'longitude', 'metro_code',
  'postal_code', 'postal_confidence_percentage', 'region', 'region_code', 'region_confidence_percentage',
  'timezone_name', 'two_letter_country_code',
];

describe('authentication', () => {
  it('needs the key in X-Auth-Key, or in the X_AUTH_KEY spelling of the spec samples', async () => {
    expect((await lookup('192.0.2.11')).status).toBe(200);
    expect((await lookup('192.0.2.11', { X_AUTH_KEY: GEO_KEY })).status).toBe(200);
  });

  it.each([['no key', {}], ['a wrong key', { 'x-auth-key': 'nope' }], ['the v2 secret as Bearer', { authorization: 'Bearer sandbox-api-secret-not-for-production' }]])(
    'answers 401 for %s', async (_, headers) => {
      const response = await lookup('192.0.2.11', headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(errorShape('unauthorized'));
    });
});

describe('fixtures', () => {
  it('every documented fixture answers the spec shape, and the catalog lists them all', async () => {
    const { geo } = await catalog();
    expect(geo.fixtures.length).toBeGreaterThanOrEqual(30);
    for (const fixture of geo.fixtures) {
      const body = await (await lookup(fixture.ip)).json<{ ip: string; geo: Record<string, unknown>; proxy: unknown }>();
      expect(body.ip).toBe(fixture.ip);
      expect(Object.keys(body.geo).sort()).toEqual([...GEO_MEMBERS].sort());
      expect(body.proxy).toEqual(fixture.proxy);
    }
  });

  it('covers several countries across the three IPv4 ranges and IPv6', async () => {
    const { geo } = await catalog();
    const countries = new Set(geo.fixtures.map((f) => f.expected_country));
    for (const code of ['GB', 'US', 'DE', 'FR', 'JP', 'BR', 'IN', 'AU', 'CA']) expect(countries).toContain(code);
    for (const prefix of ['192.0.2.', '198.51.100.', '203.0.113.', '2001:db8:']) {
      expect(geo.fixtures.some((f) => f.ip.startsWith(prefix)), prefix).toBe(true);
    }
  });

  it('covers every proxy identification and type of the spec tables', async () => {
    const { geo } = await catalog();
    const proxies = geo.fixtures.map((f) => f.proxy).filter((p): p is { identification: string | null; type: string | null } => typeof p === 'object' && p !== null);
    for (const value of PROXY_IDENTIFICATIONS) expect(proxies.map((p) => p.identification)).toContain(value);
    for (const value of PROXY_TYPES) expect(proxies.map((p) => p.type)).toContain(value);
    expect(proxies.some((p) => p.identification === null && p.type === null)).toBe(true);
  });

  it('geo verdicts are per address, not per IPv6 /64: the IPv6 fixtures sit in their own /64s, but for one pair of different proxy classes', async () => {
    const { geo } = await catalog();
    const v6 = (geo.fixtures as Array<{ ip: string; expected_country: string | null; proxy: unknown }>)
      .filter((f) => f.ip.includes(':'));
    const byNetwork = new Map<string, typeof v6>();
    for (const fixture of v6) {
      const network = visitorNetwork(fixture.ip)!;
      byNetwork.set(network, [...byNetwork.get(network) ?? [], fixture]);
    }
    const shared = [...byNetwork.entries()].filter(([, fixtures]) => fixtures.length > 1);
    expect(shared.map(([network]) => network)).toEqual(['2001:db8:64::/64']);
    expect(shared[0]![1].map((f) => [f.ip, f.expected_country, f.proxy])).toEqual([
      ['2001:db8:64::10', 'DE', { identification: null, type: null }],
      ['2001:db8:64::20', 'US', { identification: 'vpn', type: 'anonymous' }],
    ]);
    for (const [ip, country] of [['2001:db8:64::10', 'DE'], ['2001:db8:64::20', 'US']] as const) {
      const body = await (await lookup(ip)).json<{ geo: Record<string, unknown> }>();
      expect(body.geo.two_letter_country_code).toBe(country);
    }
  });

  it("copies the provider family's quirks: 'uk', lower case, numbers for strings, strings for integers", async () => {
    const london = await (await lookup('192.0.2.10')).json<{ geo: Record<string, unknown> }>();
    expect(london.geo).toMatchObject({ two_letter_country_code: 'uk', country_code: '826', continent_code: 'eu' });
    const berlin = await (await lookup('192.0.2.30')).json<{ geo: Record<string, unknown> }>();
    expect(berlin.geo.two_letter_country_code).toBe('de');
    const newYork = await (await lookup('192.0.2.20')).json<{ geo: Record<string, unknown> }>();
    expect(newYork.geo.postal_code).toBe(10001);
    const tokyo = await (await lookup('192.0.2.50')).json<{ geo: Record<string, unknown> }>();
    expect(tokyo.geo).toMatchObject({ gmt_offset: 900, latitude: '35.68' });
    const stringProxy = await (await lookup('198.51.100.21')).json<{ proxy: unknown }>();
    expect(stringProxy.proxy).toBe('null');
  });

  it('accepts IPv6 in any spelling and answers with its canonical form', async () => {
    const body = await (await lookup('2001:0DB8:0000:0000:0000:0000:0000:0010')).json<{ ip: string; geo: Record<string, unknown> }>();
    expect(body.ip).toBe('2001:db8::10');
    expect(body.geo.two_letter_country_code).toBe('DE');
    expect((await (await lookup(encodeURIComponent('2001:db8:1::1'))).json<{ geo: Record<string, unknown> }>()).geo.city).toBe('London');
  });
});

describe('addresses without a fixture', () => {
  it.each(['10.1.2.3', '172.16.0.1', '192.168.0.10', '127.0.0.1', '169.254.10.10', '100.64.0.1', '::1', 'fe80::1', 'fd12:3456::1', '::ffff:192.168.1.1'])(
    'private, loopback or link-local %s: every geo member and the proxy are null', async (ip) => {
      const response = await lookup(ip);
      expect(response.status).toBe(200);
      const body = await response.json<{ geo: Record<string, unknown>; proxy: unknown }>();
      expect(Object.values(body.geo).every((value) => value === null)).toBe(true);
      expect(body.proxy).toEqual({ identification: null, type: null });
    });

  it('other public addresses answer all-null (the sandbox ships no location database)', async () => {
    const body = await (await lookup('8.8.8.8')).json<{ ip: string; geo: Record<string, unknown>; proxy: unknown }>();
    expect(body.ip).toBe('8.8.8.8');
    expect(Object.values(body.geo).every((value) => value === null)).toBe(true);
  });

  it.each(['999.1.1.1', '1.2.3', 'localhost', '2001:db8:::1', '01.2.3.4', '1.2.3.4.5', 'gggg::1'])('%s is refused with 400', async (ip) => {
    const response = await lookup(encodeURIComponent(ip));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(errorShape('invalid_ip_address'));
  });

  it('a malformed geo path is 404 and another method 405', async () => {
    expect((await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate`, { headers: { 'x-auth-key': GEO_KEY } })).status).toBe(404);
    const post = await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/192.0.2.10`, { method: 'POST', headers: { 'x-auth-key': GEO_KEY } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
