// Geo verdicts were shared by a whole IPv6 /64: the Geo API's answer was cached per /64, so a VPN
// address inherited a clean neighbour's verdict and the reverse. Now each address keeps its own answer, and what one /64
// may spend is bounded instead: at most `budget.geo_lookups_per_network` new addresses of it are looked up per
// `budget.geo_network_window_seconds` (counted by the budget object for every isolate); beyond that the policy's
// `unknown` rule decides, as when lookups run out. The sandbox places 2001:db8:64::10 (Berlin, clean) and
// 2001:db8:64::20 (New York, a VPN) in one /64 (demo/sandbox/geo-fixtures.ts).
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { ConfigError, parseConfig } from '../../worker/config.ts';
import type { GateResponse, GeoResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import { api, callsTo, EUROPE_SITE, expectError, resetWorld, stats } from './helpers.ts';
import { allMedia, isPublic } from './upstream-direct.ts';

const GERMAN = '2001:db8:64::10';
const US_VPN = '2001:db8:64::20';
const NO_PROXY = { identification: null, type: null };
const VPN = { identification: 'vpn', type: 'anonymous' };

const lookups = async () => callsTo(await stats(), 'ip_lookup');

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}
const geo = (ip: string) => api('/api/geo', { ip });
const gate = async (policy: string, ip: string) => json<GateResponse>(await api(`/api/gate/${policy}`, { ip }));

/** A published video of the site bound to `europe`: every media of it is under that policy. */
async function europeVideo(): Promise<string> {
  const video = (await allMedia(EUROPE_SITE)).find((m) => isPublic(m) && m.media_type === 'video');
  expect(video).toBeDefined();
  return video!.id;
}

beforeEach(() => resetWorld());

describe('geo verdicts are per address, not shared by a whole IPv6 /64', () => {
  describe('two addresses of one /64 with different proxy classes get their own verdicts', () => {
    for (const order of [[GERMAN, US_VPN], [US_VPN, GERMAN]]) {
      it(`located in the order ${order.join(', then ')}`, async () => {
        const mediaId = await europeVideo();
        let playback: string | undefined;
        for (const ip of order) {
          const where = await json<GeoResponse>(await geo(ip));
          if (ip === GERMAN) {
            expect(where).toEqual({
              country: 'DE', continent: 'EU', region: 'Berlin', city: 'Berlin', timezone: 'Europe/Berlin', proxy: NO_PROXY,
              source: 'geo-api',
            });
            // The bytes behind a gated media: for the German address, as its own answer says.
            const media = await json<MediaResponse>(await api(`/api/sites/${EUROPE_SITE}/media/${mediaId}`, { ip }));
            playback = media.sources.find((s) => s.type === 'video/mp4')?.url;
            expect(playback).toMatch(/^\/api\/play\//);
            const bytes = await api(playback!, { ip, headers: { range: 'bytes=0-15' } });
            expect(bytes.status).toBe(206);
            await bytes.body?.cancel();
          } else {
            expect(where).toMatchObject({ country: 'US', continent: 'NA', proxy: VPN, source: 'geo-api' });
            await expectError(await api(`/api/sites/${EUROPE_SITE}/media/${mediaId}`, { ip }), 451, 'geo_blocked');
          }
        }
        // Each keeps its verdict, whichever was located first, at every gate.
        for (const ip of [...order].reverse()) {
          if (ip === GERMAN) {
            expect(await gate('europe', ip)).toMatchObject({ allowed: true, reason: 'allowed', complete: true, country: 'DE' });
            expect(await gate('no-proxies', ip)).toMatchObject({ allowed: true, reason: 'allowed', complete: true, proxy: NO_PROXY });
          } else {
            expect(await gate('europe', ip)).toMatchObject({ allowed: false, reason: 'continent_not_allowed', country: 'US' });
            expect(await gate('no-proxies', ip)).toMatchObject({ allowed: false, reason: 'proxy_denied', proxy: VPN });
          }
        }
        // The German address's playback URL opens for its /64 (the network binding), but the VPN address of that /64
        // is refused the bytes on its own verdict.
        await expectError(await api(playback!, { ip: US_VPN, headers: { range: 'bytes=0-15' } }), 451, 'playback_denied');
        // One lookup per address, each cached on its own: asking again cost nothing.
        expect(await lookups()).toBe(2);
      });
    }
  });

  describe('with a cap of 5 new addresses per /64 in the budget object', () => {
    const CAP = 5;
    const WINDOW_SECONDS = 600;
    // The cap is kept (and read from the configuration) by the budget object; these tests swap its env, with a geo
    // bucket large enough that only the cap can hold a lookup back.
    const base = JSON.parse(env.REELGATE_CONFIG) as { budget: Record<string, number> };
    const capped = { ...base, budget: { ...base.budget, geo_rate_per_minute: 6000, geo_burst: 300,
      geo_lookups_per_network: CAP, geo_network_window_seconds: WINDOW_SECONDS } };
    type Internals = { env: typeof env; clock: () => number };
    beforeEach(async () => {
      await runInDurableObject(budgetStub(env), (object) => {
        (object as unknown as Internals).env = { ...env, REELGATE_CONFIG: JSON.stringify(capped) };
      });
      await budgetStub(env).reset();
    });
    afterEach(async () => {
      await runInDurableObject(budgetStub(env), (object) => {
        (object as unknown as Internals).env = env;
        (object as unknown as Internals).clock = () => Date.now();
      });
      await budgetStub(env).reset();
    });

    it('200 addresses of one /64 spend no more than the cap of Geo API lookups; another /64 has its own', { timeout: 120_000 }, async () => {
      const rotating = Array.from({ length: 200 }, (_, i) => `2001:db8:c4::${(i + 1).toString(16)}`);
      const sources: string[] = [];
      for (const ip of rotating) sources.push((await json<GeoResponse>(await geo(ip))).source);
      expect(await lookups()).toBe(CAP);
      // The first CAP were looked up; after them nothing was (the dev stand-in address has no request.cf to fall back on).
      expect(sources.slice(0, CAP)).toEqual(Array(CAP).fill('geo-api'));
      expect(sources.slice(CAP)).toEqual(Array(rotating.length - CAP).fill('none'));
      // (Exactly 200 requests: the abuse limit of the test configuration counts this /64 as one visitor, 200 a minute.)
      // A visitor of another /64 is not held by this one's count.
      expect((await json<GeoResponse>(await geo('2001:db8:c5::1'))).source).toBe('geo-api');
      expect(await lookups()).toBe(CAP + 1);
    });

    it('beyond the cap the policy\'s unknown rule decides a new address; one located before keeps its verdict; a new window looks up again', async () => {
      // The VPN address is located first, then other addresses of its /64 spend the rest of the cap.
      expect(await gate('no-proxies', US_VPN)).toMatchObject({ allowed: false, reason: 'proxy_denied', complete: true });
      for (let i = 1; i < CAP; i++) await json<GeoResponse>(await geo(`2001:db8:64::${(0x100 + i).toString(16)}`));
      expect(await lookups()).toBe(CAP);

      // The German address is new: not looked up, so each policy's unknown rule decides it (deny, then allow).
      expect(await json<GeoResponse>(await geo(GERMAN))).toMatchObject({ country: null, proxy: NO_PROXY, source: 'none' });
      expect(await gate('europe', GERMAN)).toEqual({
        policy: 'europe', allowed: false, reason: 'location_unknown', complete: false, country: null, proxy: NO_PROXY,
      });
      expect(await gate('not-us', GERMAN)).toMatchObject({ allowed: true, reason: 'allowed', complete: false });
      // The VPN address keeps its own answer: refused as a proxy, never "unknown" and never its neighbour's.
      expect(await gate('no-proxies', US_VPN)).toMatchObject({ allowed: false, reason: 'proxy_denied', complete: true, proxy: VPN });
      expect(await gate('not-us', US_VPN)).toMatchObject({ allowed: false, reason: 'country_denied', complete: true });
      expect(await lookups()).toBe(CAP);

      // A window later, the /64 may be looked up again: the German address is placed.
      await runInDurableObject(budgetStub(env), (object) => {
        (object as unknown as Internals).clock = () => Date.now() + WINDOW_SECONDS * 1000;
      });
      expect(await gate('europe', GERMAN)).toMatchObject({ allowed: true, reason: 'allowed', complete: true, country: 'DE' });
      expect(await lookups()).toBe(CAP + 1);
    });
  });

  describe('the setting', () => {
    const sites = { sites: { vbQmzoYd: {} } };

    it('defaults to 10 new addresses per /64 per 10 minutes', () => {
      const { budget } = parseConfig(sites);
      expect([budget.geoLookupsPerNetwork, budget.geoNetworkWindowSeconds]).toEqual([10, 600]);
      const set = parseConfig({ ...sites, budget: { geo_lookups_per_network: 3, geo_network_window_seconds: 3600 } }).budget;
      expect([set.geoLookupsPerNetwork, set.geoNetworkWindowSeconds]).toEqual([3, 3600]);
    });

    it.each([
      ['a cap of 0', { geo_lookups_per_network: 0 }, 'budget.geo_lookups_per_network'],
      ['a fractional cap', { geo_lookups_per_network: 2.5 }, 'budget.geo_lookups_per_network'],
      ['a cap given as text', { geo_lookups_per_network: '10' }, 'budget.geo_lookups_per_network'],
      ['a window of 0', { geo_network_window_seconds: 0 }, 'budget.geo_network_window_seconds'],
      ['a window over a day', { geo_network_window_seconds: 86_401 }, 'budget.geo_network_window_seconds'],
    ])('refuses %s, naming where', (_what, budget, path) => {
      expect(() => parseConfig({ ...sites, budget })).toThrow(ConfigError);
      expect(() => parseConfig({ ...sites, budget })).toThrow(path);
    });
  });
});
