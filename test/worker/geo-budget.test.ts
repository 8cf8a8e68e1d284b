// The Geo API's budget holds by itself. The spec states no geo rate and promises `svc-request-*` headers for the
// Management API only, so the geo bucket may never lean on them: with the sandbox's geo answers stripped of those
// headers, a crowd of new visitors stays within the upstream's window and meets no upstream 429.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { getConfig } from '../../worker/config.ts';
import type { GeoResponse } from '../../worker/contract/public-api.ts';
import { api, callsTo, resetWorld, sandbox, SITE, stats } from './helpers.ts';

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const r = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(r.status).toBe(200);
  await r.body?.cancel();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** New visitors' addresses: public (documentation ranges), each asked for once. */
const ADDRESSES = ['192.0.2', '198.51.100', '203.0.113'].flatMap((net) =>
  Array.from({ length: 200 }, (_, i) => `${net}.${i + 30}`));

beforeEach(() => resetWorld());

describe('the sandbox\'s omit_geo_rate_headers switch', () => {
  it('strips svc-request-* from geo answers only', async () => {
    await setFaults({ omit_geo_rate_headers: true });
    const geo = await sandbox('/ip_lookup/reelgate-test/192.0.2.10', { headers: { 'x-auth-key': env.GEO_API_KEY } });
    expect(geo.status).toBe(200);
    await geo.body?.cancel();
    expect(geo.headers.get('svc-request-limit')).toBeNull();
    expect(geo.headers.get('svc-request-remaining')).toBeNull();
    const v2 = await sandbox(`/v2/sites/${SITE}/players/`, { headers: { authorization: `Bearer ${env.API_SECRET}` } });
    expect(v2.status).toBe(200);
    await v2.body?.cancel();
    expect(v2.headers.get('svc-request-remaining')).toMatch(/^\d+$/);
  });
});

describe('the geo budget without svc-request-* headers', () => {
  it('defaults to 50 a minute with a burst of 5: one minute of it stays within a 60/min upstream', () => {
    const { geoRatePerMinute, geoBurst } = getConfig(env).budget;
    expect([geoRatePerMinute, geoBurst]).toEqual([50, 5]);
    expect(geoRatePerMinute + geoBurst).toBeLessThanOrEqual(60);
  });

  it('a crowd of new visitors never makes the worker exceed the geo window nor meet an upstream geo 429', { timeout: 60_000 }, async () => {
    await setFaults({ omit_geo_rate_headers: true });
    const { geoRatePerMinute, geoBurst } = getConfig(env).budget;
    // Ten waves of 20 new visitors, a second apart: enough for a bucket at the old default (300/min, burst 20) to
    // pass the upstream's 60 in its window; at most ~13 lookups for a bucket that holds the limit.
    const started = Date.now();
    const answers: Response[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const crowd = ADDRESSES.slice(wave * 20, wave * 20 + 20);
      answers.push(...await Promise.all(crowd.map((ip) => api('/api/geo', { ip }))));
      await sleep(started + (wave + 1) * 1000 - Date.now());
    }
    const elapsedMinutes = (Date.now() - started) / 60_000;

    // Every visitor is answered: by the Geo API while its budget lasts, else by request.cf (or nothing known).
    const sources = new Map<string, number>();
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as GeoResponse;
      sources.set(body.source, (sources.get(body.source) ?? 0) + 1);
    }
    expect(sources.get('geo-api') ?? 0).toBeGreaterThan(0);

    const raw = (await (await sandbox('/_sandbox/stats')).json()) as { peak_calls_per_minute: number; rate_limit_per_minute: number };
    const s = await stats();
    const lookups = callsTo(s, 'ip_lookup');
    expect(s.rate_limited).toBe(0);
    expect(raw.peak_calls_per_minute).toBeLessThanOrEqual(raw.rate_limit_per_minute);
    expect(lookups).toBeLessThanOrEqual(geoBurst + Math.ceil(elapsedMinutes * geoRatePerMinute));
    // The bucket was never told to stop: it held the limit by itself.
    expect((await budgetStub(env).snapshot()).pausedUntil.geo).toBe(0);
  });
});
