// One budget, fair lanes: gateway calls go through the same budget object as the public widgets, writes before reads,
// keys taking turns inside a lane, and never more upstream calls than the budget allows.
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/upstream.ts';
import { api } from '../worker/helpers.ts';
import { catalog, createKey, expectError, gateway, resetGateway, send, SITE, stats } from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
/** Budget in the test configuration (vitest.config.mts). */
const RATE_PER_MINUTE = 50;
const BURST = 10;

describe('a burst from several keys', () => {
  it('makes at most the budget\'s upstream calls; the rest are 429 with Retry-After and the caller\'s share', async () => {
    const keys = await Promise.all([createKey(['read']), createKey(['read']), createKey(['read'])]);
    const started = Date.now();
    const responses = await Promise.all(keys.flatMap((key, k) => Array.from({ length: 12 }, (_, i) =>
      // Distinct pages: identical reads would share one upstream request.
      gateway(`${V2}/media/?page=${k * 100 + i + 1}&page_length=1`, { headers: key.auth }))));
    const elapsedMinutes = (Date.now() - started) / 60_000;
    const s = await stats();
    expect(s.total).toBeLessThanOrEqual(BURST + Math.ceil(elapsedMinutes * RATE_PER_MINUTE));
    expect(s.rate_limited).toBe(0);
    let ok = 0;
    for (const response of responses) {
      expect(Number(response.headers.get('svc-request-limit'))).toBeGreaterThan(0);
      if (response.status === 200) {
        ok += 1;
        await response.body?.cancel();
      } else {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        await expectError(response, 429, 'rate_limited');
      }
    }
    expect(ok).toBe(s.total);
    expect(ok).toBeGreaterThan(0);
  });

  it('each key sees its share of the budget shrink as it spends it', async () => {
    const [a, b] = await Promise.all([createKey(['read']), createKey(['read'])]);
    const first = await gateway(`${V2}/players/`, { headers: a.auth });
    expect(first.headers.get('svc-request-limit')).toBe(String(RATE_PER_MINUTE));
    expect(first.headers.get('svc-request-remaining')).toBe(String(RATE_PER_MINUTE - 1));
    const second = await gateway(`${V2}/playlists/`, { headers: b.auth });
    // Two active keys now split the budget.
    expect(second.headers.get('svc-request-limit')).toBe(String(RATE_PER_MINUTE / 2));
    expect(second.headers.get('svc-request-remaining')).toBe(String(RATE_PER_MINUTE / 2 - 1));
    const third = await gateway(`${V2}/media/?page_length=1`, { headers: a.auth });
    expect(third.headers.get('svc-request-remaining')).toBe(String(RATE_PER_MINUTE / 2 - 2));
  });
});

describe('lane order and fairness', () => {
  // A slow budget (one call a second, no burst, a long wait) so a queue forms that the test can watch drain. The
  // object reads its configuration from its env; only this test swaps it, and afterEach restores it.
  const slow = { ...JSON.parse(env.REELGATE_CONFIG), budget: { rate_per_minute: 59, burst: 1, max_wait_ms: 20_000 } };
  const stub = () => budgetStub(env);

  afterEach(async () => {
    await runInDurableObject(stub(), (object) => {
      (object as unknown as { env: typeof env }).env = env;
    });
    await stub().reset();
  });

  it('public misses go first, then queued writes, then reads, with keys taking turns inside a lane', { timeout: 30_000 }, async () => {
    await runInDurableObject(stub(), (object) => {
      (object as unknown as { env: typeof env }).env = { ...env, REELGATE_CONFIG: JSON.stringify(slow) };
    });
    await stub().reset();
    const [importer, dashboard, cms] = await Promise.all([createKey(['read']), createKey(['read']), createKey(['write'])]);
    const player = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).players[0];
    // Spend the one token, then hold the bucket as an upstream Retry-After would, so everything below queues.
    expect((await gateway(`${V2}/players/`, { headers: importer.auth })).status).toBe(200);
    await runInDurableObject(stub(), (object) => {
      (object as unknown as { bucket(api: string): { pause(ms: number, now: number): void } }).bucket('v2').pause(2500, Date.now());
    });
    const started = Date.now();

    const order: string[] = [];
    const track = (label: string, response: Promise<Response>) => response.then(async (r) => {
      order.push(label);
      return { label, status: r.status, text: await r.text() };
    });
    const waitQueued = async (n: number) => {
      for (let i = 0; i < 100 && (await stub().snapshot()).queued.v2 < n; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await stub().snapshot()).queued.v2).toBe(n);
    };
    // The import job's reads arrive first, then the dashboard's one read, then the CMS's two writes.
    const all = [
      ...[1, 2, 3].map((i) => track(`importer-read-${i}`, gateway(`${V2}/media/?page=${i}&page_length=1`, { headers: importer.auth }))),
    ];
    await waitQueued(3);
    all.push(track('dashboard-read', gateway(`${V2}/playlists/?page_length=1`, { headers: dashboard.auth })));
    await waitQueued(4);
    all.push(...[1, 2].map((i) => track(`cms-write-${i}`,
      send(`${V2}/players/`, 'POST', cms, { metadata: { name: `cms ${i}` } }))));
    await waitQueued(6);
    // Last of all, a widget's cache miss on the public API.
    all.push(track('public-miss', api(`/api/sites/${SITE}/players/${player}`)));
    await waitQueued(7);

    const results = await Promise.all(all);
    for (const r of results) expect(r.status, `${r.label}: ${r.text}`).toBeLessThan(300);
    // The public lane first, then the writes (though they came late); then the readers in turns: the dashboard's single read is not stuck
    // behind the whole import job.
    expect(order[0]).toBe('public-miss');
    expect(order.slice(1, 3).sort()).toEqual(['cms-write-1', 'cms-write-2']);
    // (The importer's own three reads were sent together, so their order among themselves is the arrival order.)
    expect(order.slice(3).map((label) => label.split('-')[0])).toEqual(['importer', 'dashboard', 'importer', 'importer']);

    // Within the budget: the warm-up, then one call per refill.
    const elapsedMinutes = (Date.now() - started) / 60_000;
    expect((await stats()).total).toBeLessThanOrEqual(1 + 1 + Math.ceil(elapsedMinutes * 59));
    expect((await stats()).total).toBe(8);
    expect((await stats()).rate_limited).toBe(0);
  });
});
