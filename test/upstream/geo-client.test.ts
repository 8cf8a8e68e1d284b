// The geo client against the sandbox's lookup route: address validation before any request, the key header, the
// documentation-range fixtures through the normaliser, and failures.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  GeoApiError, InvalidIpAddressError, isPublicAddress, normaliseGeo, UpstreamRequestError,
} from '../../worker/upstream/index.ts';
import {
  clearFaults, geoClient, recordingFetch, resetSandbox, sandboxCatalog, sandboxStats, setFaults, type Catalog,
} from './sandbox-support.ts';

let catalog: Catalog;
beforeAll(async () => {
  await resetSandbox();
  catalog = await sandboxCatalog();
});
beforeEach(async () => {
  await resetSandbox();
});
afterEach(async () => {
  await clearFaults();
});

describe('GeoClient.lookup', () => {
  it('GETs /ip_lookup/<client>/<ip> with X-Auth-Key and answers the spec\'s shape', async () => {
    const recorder = recordingFetch();
    const answer = await geoClient({ fetch: recorder.fetch }).lookup('192.0.2.11');
    expect(answer.ip).toBe('192.0.2.11');
    expect(answer.geo).toBeTypeOf('object');
    expect(answer).toHaveProperty('proxy');
    const [call] = recorder.calls;
    expect(call!.method).toBe('GET');
    expect(new URL(call!.url).pathname).toBe('/ip_lookup/reelgate/192.0.2.11');
    expect(call!.headers).toEqual({ 'x-auth-key': 'sandbox-geo-key-not-for-production', accept: 'application/json' });
    expect(call!.redirect).toBe('manual');
  });

  it('every documentation-range fixture normalises to its country and a proxy from the spec tables', async () => {
    const client = geoClient();
    const fixtures = catalog.geo.fixtures;
    expect(fixtures.length).toBeGreaterThan(20);
    for (const fixture of fixtures) {
      const normalised = await client.lookupNormalised(fixture.ip);
      expect(normalised.country, fixture.note).toBe(fixture.expected_country);
      expect(Object.keys(normalised.proxy).sort()).toEqual(['identification', 'type']);
      const expectedProxy = typeof fixture.proxy === 'object' && fixture.proxy !== null
        ? fixture.proxy as { identification: string | null; type: string | null } : { identification: null, type: null };
      expect(normalised.proxy, fixture.note).toEqual({
        identification: expectedProxy.identification === 'null' ? null : expectedProxy.identification,
        type: expectedProxy.type === 'null' ? null : expectedProxy.type,
      });
    }
  });

  it('the known quirks come out clean', async () => {
    const client = geoClient();
    const london = await client.lookupNormalised('192.0.2.10'); // 'uk', 'eu', country_code '826'
    expect(london).toMatchObject({ country: 'GB', continent: 'EU', country_numeric: 826 });
    const newYork = await client.lookupNormalised('192.0.2.20'); // postal_code and area_codes as numbers
    expect(newYork).toMatchObject({ country: 'US', postal_code: '10001', area_codes: '212', metro_code: 501 });
    const tokyo = await client.lookupNormalised('192.0.2.50'); // gmt_offset 900, latitude '35.68'
    expect(tokyo).toMatchObject({ country: 'JP', gmt_offset: '+0900', latitude: 35.68 });
    const saoPaulo = await client.lookupNormalised('192.0.2.60'); // in_dst 'false'
    expect(saoPaulo.in_dst).toBe(false);
    const sydney = await client.lookupNormalised('192.0.2.80'); // confidences as strings
    expect(sydney).toMatchObject({ country: 'AU', country_confidence: 95, city_confidence: 70, region_confidence: 85 });
    const stringProxy = await client.lookupNormalised('198.51.100.21'); // proxy 'null' as a string
    expect(stringProxy.proxy).toEqual({ identification: null, type: null });
  });

  it('sends IPv6 in canonical form', async () => {
    const recorder = recordingFetch();
    const answer = await geoClient({ fetch: recorder.fetch }).lookup('2001:0DB8:0:0:0:0:0:10');
    expect(new URL(recorder.calls[0]!.url).pathname).toBe('/ip_lookup/reelgate/2001:db8::10');
    expect(normaliseGeo(answer).country).toBe('DE');
  });

  it('looks up an IPv4-mapped IPv6 address as the IPv4 address it carries', async () => {
    const recorder = recordingFetch();
    const answer = await geoClient({ fetch: recorder.fetch }).lookupNormalised('::FFFF:192.0.2.11');
    expect(new URL(recorder.calls[0]!.url).pathname).toBe('/ip_lookup/reelgate/192.0.2.11');
    expect(answer.country).toBe('GB');
  });

  it('private and loopback addresses answer null members', async () => {
    for (const ip of ['10.0.0.1', '127.0.0.1', '::1']) {
      expect(isPublicAddress(ip)).toBe(false);
      const normalised = await geoClient().lookupNormalised(ip);
      expect(normalised).toMatchObject({ country: null, continent: null, city: null, proxy: { identification: null, type: null } });
    }
  });

  it('refuses a bad address before any request', async () => {
    const recorder = recordingFetch();
    const client = geoClient({ fetch: recorder.fetch });
    for (const bad of ['192.0.2.011', '1.2.3', 'fe80::1%eth0', '2001:db8::g', 'example.com', '', '192.0.2.1/24', '../_sandbox/reset']) {
      await expect(client.lookup(bad)).rejects.toBeInstanceOf(InvalidIpAddressError);
    }
    expect(recorder.calls).toEqual([]);
  });

  it('a wrong key is a GeoApiError with the status', async () => {
    const error = await geoClient({ apiKey: 'wrong-key' }).lookup('192.0.2.11').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(GeoApiError);
    expect(error).toMatchObject({ status: 401 });
  });

  it('a 429 carries the wait; an outage is a 503', async () => {
    await setFaults({ force_429: true, retry_after_seconds: 9 });
    await expect(geoClient().lookup('192.0.2.11')).rejects.toMatchObject({ name: 'GeoApiError', status: 429, retryAfterSeconds: 9 });
    await setFaults({ outage: true });
    await expect(geoClient().lookup('192.0.2.11')).rejects.toMatchObject({ status: 503 });
  });

  it('times out, refuses redirects, and calls out unreadable answers', async () => {
    await setFaults({ latency_ms: 3000 });
    await expect(geoClient({ timeoutMs: 100 }).lookup('192.0.2.11')).rejects.toMatchObject({ kind: 'timeout' });
    await clearFaults();
    const redirecting = async () => new Response(null, { status: 301, headers: { location: 'https://elsewhere.example/' } });
    await expect(geoClient({ fetch: redirecting }).lookup('192.0.2.11')).rejects.toMatchObject({ kind: 'redirect' });
    const garbling = async (request: Request) => {
      await fetch(request);
      return new Response('not json', { status: 200 });
    };
    const error = await geoClient({ fetch: garbling }).lookup('192.0.2.11').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(UpstreamRequestError);
    expect(error).toMatchObject({ kind: 'invalid_response' });
  });

  it('the client name is checked like any path segment', async () => {
    expect(() => geoClient({ client: '../v2' })).toThrow(/client/);
    const before = (await sandboxStats()).total_calls;
    await expect(geoClient().lookup('not-an-ip')).rejects.toThrow(InvalidIpAddressError);
    expect((await sandboxStats()).total_calls).toBe(before);
  });
});
