// The operator's configuration: parsed into a typed object, every mistake refused with the path that holds it.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../worker/config.ts';
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

  it('checks proxies first, then unknown, countries, continents', () => {
    expect(decide(policy, { country: null, continent: null, proxy: { identification: 'tor_exit', type: null } }).reason).toBe('proxy_denied');
    expect(decide(policy, { country: 'DE', continent: 'EU', proxy: { identification: null, type: 'hosting' } }).reason).toBe('proxy_denied');
    expect(decide(policy, { country: null, continent: null, proxy: none })).toEqual({ allowed: true, reason: 'allowed' });
    expect(decide(policy, { country: 'FR', continent: 'EU', proxy: none }).reason).toBe('country_denied');
    expect(decide(policy, { country: 'JP', continent: 'AS', proxy: none }).reason).toBe('continent_denied');
    expect(decide(policy, { country: 'US', continent: 'NA', proxy: none }).reason).toBe('continent_not_allowed');
    expect(decide(policy, { country: 'DE', continent: 'EU', proxy: none })).toEqual({ allowed: true, reason: 'allowed' });
  });
});
