// One budget, fair lanes: gateway calls go through the same budget object as the public widgets, writes before reads,
// keys taking turns inside a lane, and never more upstream calls than the budget allows.
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/upstream.ts';
import { getConfig } from '../../worker/config.ts';
import { api } from '../worker/helpers.ts';
import { catalog, createKey, expectError, gateway, resetGateway, send, SITE, stats } from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
/** Budget in the test configuration (vitest.config.mts). */
const { ratePerMinute: RATE_PER_MINUTE, burst: BURST } = getConfig(env).budget;

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
  // A slow budget (about one call a second, a reserve of one call per side and nothing shared, a long wait) so a queue forms that the
  // test can release at once. The object reads its configuration from its env; only this test swaps it, and
  // afterEach restores it.
  const slow = { ...JSON.parse(env.REELGATE_CONFIG), budget: { rate_per_minute: 59, burst: 2, gateway_floor: 0.5, public_floor: 0.5, max_wait_ms: 30_000 } };
  const stub = () => budgetStub(env);
  type Internals = {
    env: typeof env;
    buckets: Map<string, { tokens: { public: number; gateway: number; shared: number }; pausedUntil: number; last: number }>;
    queues: Map<string, { shift(share: string): { lane: string; caller: string } | undefined }>;
    bucket(api: string): { pause(ms: number, now: number): void };
    pump(api: string): void;
  };

  afterEach(async () => {
    await runInDurableObject(stub(), (object) => {
      (object as unknown as Internals).env = env;
    });
    await stub().reset();
  });

  it('visitors and gateway keys are served side by side; inside the gateway\'s share writes go first, keys taking turns', { timeout: 30_000 }, async () => {
    await runInDurableObject(stub(), (object) => {
      (object as unknown as Internals).env = { ...env, REELGATE_CONFIG: JSON.stringify(slow) };
    });
    await stub().reset();
    const [importer, dashboard, cms] = await Promise.all([createKey(['read']), createKey(['read']), createKey(['write'])]);
    const player = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).players[0];
    expect((await gateway(`${V2}/players/`, { headers: importer.auth })).status).toBe(200);
    // Hold the bucket as an upstream Retry-After would, so everything below queues; record the order of the grants.
    const granted: string[] = [];
    await runInDurableObject(stub(), (object) => {
      const internals = object as unknown as Internals;
      internals.bucket('v2').pause(10_000, Date.now());
      const queue = internals.queues.get('v2')!;
      const shift = queue.shift.bind(queue);
      queue.shift = (share: string) => {
        const waiter = shift(share);
        if (waiter) granted.push(`${waiter.lane}:${waiter.caller}`);
        return waiter;
      };
    });
    const started = Date.now();

    const waitQueued = async (n: number) => {
      for (let i = 0; i < 200 && (await stub().snapshot()).queued.v2 < n; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await stub().snapshot()).queued.v2).toBe(n);
    };
    const track = (label: string, response: Promise<Response>) => response.then(async (r) => ({ label, status: r.status, text: await r.text() }));
    // The import job's reads arrive first, then the dashboard's one read, then the CMS's two writes.
    const all = [1, 2, 3].map((i) => track(`importer-read-${i}`, gateway(`${V2}/media/?page=${i}&page_length=1`, { headers: importer.auth })));
    await waitQueued(3);
    all.push(track('dashboard-read', gateway(`${V2}/playlists/?page_length=1`, { headers: dashboard.auth })));
    await waitQueued(4);
    all.push(track('cms-write-1', send(`${V2}/players/`, 'POST', cms, { metadata: { name: 'cms 1' } })));
    await waitQueued(5);
    all.push(track('cms-write-2', send(`${V2}/players/`, 'POST', cms, { metadata: { name: 'cms 2' } })));
    await waitQueued(6);
    // Last of all, a widget's cache miss on the public API.
    all.push(track('public-miss', api(`/api/sites/${SITE}/players/${player}`)));
    await waitQueued(7);

    // The upstream's pause ends with both reserves full (one call each).
    await runInDurableObject(stub(), (object) => {
      const internals = object as unknown as Internals;
      const bucket = internals.buckets.get('v2')!;
      bucket.pausedUntil = 0;
      bucket.tokens = { public: 1, gateway: 1, shared: 0 };
      bucket.last = Date.now();
      internals.pump('v2');
    });
    const results = await Promise.all(all);
    for (const r of results) expect(r.status, `${r.label}: ${r.text}`).toBeLessThan(300);
    // The visitor's miss is not queued behind six gateway calls: it takes the visitors' reserve at once, beside the
    // first write. Then the writes before the reads (though they came late), and the readers in turns: the
    // dashboard's single read is not stuck behind the whole import job.
    const names = new Map([[importer.id, 'importer'], [dashboard.id, 'dashboard'], [cms.id, 'cms']]);
    expect(granted.map((g) => {
      const [lane, caller] = g.split(':') as [string, string];
      return `${lane}:${names.get(caller) ?? 'visitor'}`;
    })).toEqual([
      'public:visitor', 'gateway-write:cms', 'gateway-write:cms',
      'gateway-read:importer', 'gateway-read:dashboard', 'gateway-read:importer', 'gateway-read:importer',
    ]);

    // Within the budget: the warm-up, the two reserves, then one call per refill.
    const elapsedMinutes = (Date.now() - started) / 60_000;
    expect((await stats()).total).toBeLessThanOrEqual(1 + 2 + Math.ceil(elapsedMinutes * 59));
    expect((await stats()).total).toBe(8);
    expect((await stats()).rate_limited).toBe(0);
  });
});

describe('neither side starves the other', () => {
  it('a gateway import job flooding reads leaves visitors their reserve', async () => {
    const importer = await createKey(['read']);
    const player = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).players[0];
    // Far more distinct reads than the whole burst, all at once.
    const reads = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      gateway(`${V2}/media/?page=${i + 1}&page_length=1`, { headers: importer.auth })));
    await Promise.all(reads.map((r) => r.body?.cancel()));
    expect(reads.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    // A widget's miss right after: served from the visitors' reserve, which the import job could not touch.
    const miss = await api(`/api/sites/${SITE}/players/${player}`);
    expect(miss.status, await miss.text()).toBe(200);
    expect((await stats()).rate_limited).toBe(0);
  });
});
