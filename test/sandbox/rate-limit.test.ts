// The platform's limit per secret over a sliding minute: headers on every response, 429 past it, call not executed.
import { beforeEach, expect, it } from 'vitest';
import { call, callJson, control, errorShape, GEO_KEY, ORIGIN, reset, SECRET, sites, type SiteCatalog } from './helpers.ts';
import { env } from 'cloudflare:test';

let site: SiteCatalog;
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 5 });
  site = (await sites()).big;
});

it('every response carries svc-request-limit and a falling svc-request-remaining', async () => {
  const seen: Array<[string | null, string | null]> = [];
  for (let i = 0; i < 3; i++) {
    const response = await call('GET', `/v2/sites/${site.id}/media/`);
    seen.push([response.headers.get('svc-request-limit'), response.headers.get('svc-request-remaining')]);
  }
  expect(seen).toEqual([['5', '4'], ['5', '3'], ['5', '2']]);
});

it('error answers carry the headers too', async () => {
  const response = await call('GET', `/v2/sites/${site.id}/nowhere/`);
  expect(response.status).toBe(404);
  expect(response.headers.get('svc-request-limit')).toBe('5');
  expect(response.headers.get('svc-request-remaining')).toBe('4');
});

it('past the limit: 429 rate_limit_exceeded with Retry-After, and the call is not executed', async () => {
  for (let i = 0; i < 5; i++) expect((await call('GET', `/v2/sites/${site.id}/players/`)).status).toBe(200);
  const refused = await callJson('POST', `/v2/sites/${site.id}/players/`, { body: { metadata: { name: 'Should not exist' } } });
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual(errorShape('rate_limit_exceeded'));
  expect(refused.response.headers.get('svc-request-remaining')).toBe('0');
  const retryAfter = Number(refused.response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);

  // A fresh window (reset clears rate windows but keeps the catalog seeded) shows the player was never created.
  await control('POST', 'reset', { rate_limit_per_minute: 100 });
  const players = await callJson('GET', `/v2/sites/${site.id}/players/?q=name:"Should not exist"`);
  expect(players.body.total).toBe(0);
});

it('refused calls do not use up the window: the 429 repeats without growing it', async () => {
  for (let i = 0; i < 5; i++) await call('GET', `/v2/sites/${site.id}/players/`);
  for (let i = 0; i < 3; i++) expect((await call('GET', `/v2/sites/${site.id}/players/`)).status).toBe(429);
  const stats = await (await control('GET', 'stats')).json<{ rate_limited: number; peak_calls_per_minute: number }>();
  expect(stats.rate_limited).toBe(3);
  expect(stats.peak_calls_per_minute).toBe(5);
});

it('concurrent callers never get more than the limit through', async () => {
  const statuses = await Promise.all(Array.from({ length: 12 }, () => call('GET', `/v2/sites/${site.id}/players/`).then((r) => r.status)));
  expect(statuses.filter((status) => status === 200)).toHaveLength(5);
  expect(statuses.filter((status) => status === 429)).toHaveLength(7);
});

it('a wrong secret fills its own window, never the real secret\'s', async () => {
  for (let i = 0; i < 7; i++) await call('GET', `/v2/sites/${site.id}/media/`, { anonymous: true, headers: { authorization: 'Bearer guess' } });
  const real = await call('GET', `/v2/sites/${site.id}/media/`);
  expect(real.status).toBe(200);
  expect(real.headers.get('svc-request-remaining')).toBe('4');
  const guessed = await call('GET', `/v2/sites/${site.id}/media/`, { anonymous: true, headers: { authorization: 'Bearer guess' } });
  expect(guessed.status).toBe(429);
});

it('spelling the scheme differently buys no fresh window', async () => {
  const spellings = ['Bearer ', 'bearer ', 'BEARER ', 'Bearer  ', 'Bearer\t'];
  for (const spelling of spellings) {
    const response = await call('GET', `/v2/sites/${site.id}/media/`, { anonymous: true, headers: { authorization: `${spelling}${SECRET}` } });
    expect(response.status).toBe(200);
  }
  expect((await call('GET', `/v2/sites/${site.id}/media/`, { anonymous: true, headers: { authorization: `bearer ${SECRET}` } })).status).toBe(429);
});

it('the geo route is counted per key, apart from the v2 secret', async () => {
  for (let i = 0; i < 5; i++) await call('GET', `/v2/sites/${site.id}/media/`);
  const geo = await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/192.0.2.10`, { headers: { 'x-auth-key': GEO_KEY } });
  expect(geo.status).toBe(200);
  expect(geo.headers.get('svc-request-limit')).toBe('5');
  expect(geo.headers.get('svc-request-remaining')).toBe('4');
  for (let i = 0; i < 4; i++) await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/192.0.2.10`, { headers: { 'x-auth-key': GEO_KEY } });
  expect((await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/192.0.2.10`, { headers: { 'x-auth-key': GEO_KEY } })).status).toBe(429);
});

it('the limit comes from RATE_LIMIT_PER_MINUTE (60) when a reset sets none', async () => {
  await reset();
  const response = await call('GET', `/v2/sites/${site.id}/media/`);
  expect(response.headers.get('svc-request-limit')).toBe('60');
  expect(response.headers.get('svc-request-remaining')).toBe('59');
});
