// The operator's configuration: parsed into a typed object, every mistake refused with the path that holds it.
import { describe, expect, it } from 'vitest';
import { ConfigError, getConfig, parseConfig } from '../../worker/config.ts';
import { decide } from '../../worker/geo/policy.ts';

const base = { sites: { vbQmzoYd: {} }, policies: { eu: { allow_continents: ['EU'] } } };

describe('parseConfig', () => {
  it('reads JSON text and objects alike, with defaults for what is left out', () => {
    const fromText = parseConfig(JSON.stringify(base));
    const fromObject = parseConfig(base);
    expect(fromText).toEqual(fromObject);
    expect([...fromObject.sites.keys()]).toEqual(['vbQmzoYd']);
    expect(fromObject.budget.ratePerMinute).toBeLessThan(60);
    expect(fromObject.cache.feed.freshSeconds).toBeGreaterThan(0);
    expect(fromObject.policies.get('eu')!.unknown).toBe('deny');
  });

  it('defaults: the floors, the variant cap, and a geo budget like the Management API\'s', () => {
    const { budget, feed } = parseConfig(base);
    expect([budget.gatewayFloor, budget.publicFloor]).toEqual([0.3, 0.3]);
    // Each side's reserve holds at least one call with the default burst.
    expect(budget.burst * budget.gatewayFloor).toBeGreaterThanOrEqual(1);
    expect(budget.burst * budget.publicFloor).toBeGreaterThanOrEqual(1);
    expect([feed.maxVariants, feed.variantWindowSeconds]).toEqual([10, 60]);
    // No geo rate is stated and no rate header may come back: a minute of the geo bucket stays within 60 calls.
    expect([budget.geoRatePerMinute, budget.geoBurst]).toEqual([50, 5]);
    expect(budget.geoRatePerMinute + budget.geoBurst).toBeLessThanOrEqual(60);
    expect(parseConfig({ ...base, budget: { geo_rate_per_minute: 600, geo_burst: 30 } }).budget.geoRatePerMinute).toBe(600);
  });

  it.each([
    ['not JSON', '{sites:', 'REELGATE_CONFIG is not valid JSON'],
    ['a budget at or above the platform limit', { ...base, budget: { rate_per_minute: 60 } }, 'budget.rate_per_minute'],
    ['an unknown setting', { ...base, budgett: {} }, 'REELGATE_CONFIG.budgett'],
    ['a site bound to an unknown policy', { ...base, sites: { vbQmzoYd: { policy: 'nope' } } }, 'sites.vbQmzoYd.policy'],
    ['a malformed site id', { ...base, sites: { 'bad id': {} } }, 'sites.bad id'],
    ['a lower-case country', { ...base, policies: { eu: { deny_countries: ['gb'] } } }, 'policies.eu.deny_countries'],
    ['an unknown proxy type', { ...base, policies: { eu: { deny_proxy_types: ['evil'] } } }, 'policies.eu.deny_proxy_types'],
    ['a bad unknown rule', { ...base, policies: { eu: { unknown: 'maybe' } } }, 'policies.eu.unknown'],
    ['an origin with a path', { ...base, allowed_origins: ['https://a.example/path'] }, 'allowed_origins'],
    ['a negative window', { ...base, cache: { feed: { stale_seconds: -1 } } }, 'cache.feed.stale_seconds'],
    ['a gateway floor that leaves a lane nothing', { ...base, budget: { gateway_floor: 1 } }, 'budget.gateway_floor'],
    ['a burst too small for the gateway\'s reserve', { ...base, budget: { burst: 2, gateway_floor: 0.3, public_floor: 0.5 } }, 'budget.burst × budget.gateway_floor'],
    ['a burst too small for the visitors\' reserve', { ...base, budget: { burst: 4, public_floor: 0.2 } }, 'budget.burst × budget.public_floor'],
    ['floors that add up to more than the budget', { ...base, budget: { gateway_floor: 0.6, public_floor: 0.5 } }, 'budget.gateway_floor + budget.public_floor'],
    ['a negative variant cap', { ...base, feed: { max_variants: -1 } }, 'feed.max_variants'],
    ['a variant window of 0', { ...base, feed: { variant_window_seconds: 0 } }, 'feed.variant_window_seconds'],
    ['an unknown feed setting', { ...base, feed: { max_variant: 3 } }, 'feed.max_variant'],
  ])('refuses %s, naming where', (_what, input, path) => {
    expect(() => parseConfig(input)).toThrow(ConfigError);
    expect(() => parseConfig(input)).toThrow(path);
  });
});

describe('policy decisions', () => {
  const policy = parseConfig({
    policies: {
      p: {
        deny_countries: ['FR'], allow_continents: ['EU'], deny_continents: ['AS'],
        deny_proxy_identifications: ['tor_exit'], deny_proxy_types: ['hosting'], unknown: 'allow',
      },
    },
  }).policies.get('p')!;
  const none = { identification: null, type: null };

  const api = 'geo-api' as const;

  it('checks proxies first, then unknown, countries, continents', () => {
    expect(decide(policy, { country: null, continent: null, proxy: { identification: 'tor_exit', type: null }, source: 'cf' }).reason).toBe('proxy_denied');
    expect(decide(policy, { country: 'DE', continent: 'EU', proxy: { identification: null, type: 'hosting' }, source: api }).reason).toBe('proxy_denied');
    expect(decide(policy, { country: null, continent: null, proxy: none, source: api })).toEqual({ allowed: true, reason: 'allowed', complete: false });
    expect(decide(policy, { country: 'FR', continent: 'EU', proxy: none, source: api }).reason).toBe('country_denied');
    expect(decide(policy, { country: 'JP', continent: 'AS', proxy: none, source: api }).reason).toBe('continent_denied');
    expect(decide(policy, { country: 'US', continent: 'NA', proxy: none, source: api }).reason).toBe('continent_not_allowed');
    expect(decide(policy, { country: 'DE', continent: 'EU', proxy: none, source: api })).toEqual({ allowed: true, reason: 'allowed', complete: true });
  });

  it('never decides a policy with proxy rules without the proxy class: its unknown rule applies', () => {
    const strict = parseConfig({ policies: { s: { allow_continents: ['EU'], deny_proxy_types: ['hosting'], unknown: 'deny' } } })
      .policies.get('s')!;
    // Cloudflare's view knows the country but not whether the address is a proxy.
    expect(decide(strict, { country: 'DE', continent: 'EU', proxy: none, source: 'cf' }))
      .toEqual({ allowed: false, reason: 'location_unknown', complete: false });
    expect(decide(policy, { country: 'DE', continent: 'EU', proxy: none, source: 'cf' }))
      .toEqual({ allowed: true, reason: 'allowed', complete: false });
    // A country-only policy needs no proxy class: Cloudflare's country is complete information.
    const countries = parseConfig({ policies: { c: { allow_countries: ['DE'], unknown: 'deny' } } }).policies.get('c')!;
    expect(decide(countries, { country: 'DE', continent: 'EU', proxy: none, source: 'cf' }))
      .toEqual({ allowed: true, reason: 'allowed', complete: true });
  });
});

describe('getConfig', () => {
  it('parses once per configuration, whether text or object, and again when it changes', () => {
    const text = JSON.stringify(base);
    const fromText = getConfig({ REELGATE_CONFIG: text });
    expect(getConfig({ REELGATE_CONFIG: text })).toBe(fromText);
    expect(getConfig({ REELGATE_CONFIG: `${text} ` })).toBe(getConfig({ REELGATE_CONFIG: `${text} ` }));
    const object = { ...base, allowed_origins: ['https://a.example'] };
    const fromObject = getConfig({ REELGATE_CONFIG: object });
    expect(getConfig({ REELGATE_CONFIG: object })).toBe(fromObject);
    // A new object with other content is a new configuration; one with the same content parses to the same one.
    const other = { ...base, allowed_origins: ['https://b.example'] };
    expect(getConfig({ REELGATE_CONFIG: other }).allowedOrigins).toEqual(['https://b.example']);
    expect(getConfig({ REELGATE_CONFIG: { ...other } }).allowedOrigins).toEqual(['https://b.example']);
    expect(getConfig({ REELGATE_CONFIG: object })).toBe(fromObject);
    expect(() => getConfig({ REELGATE_CONFIG: '{sites:' })).toThrow(ConfigError);
  });
});
