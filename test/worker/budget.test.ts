// The budget object: one upstream call for identical concurrent misses, never more calls than the budget however many
// visitors arrive, a bounded wait then 429 with Retry-After, and it learns from what the upstream says.
import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BudgetResult } from '../../worker/budget/calls.ts';
import { LaneQueue, type Lane } from '../../worker/budget/lanes.ts';
import { TokenBucket, type Share } from '../../worker/budget/token-bucket.ts';
import { VariantLimiter } from '../../worker/budget/variants.ts';
import { budgetStub } from '../../worker/budget/client.ts';
import { getConfig } from '../../worker/config.ts';
import { api, boundPlaylists, callsTo, expectError, resetWorld, sandbox, SITE, stats } from './helpers.ts';
import { players } from './upstream-direct.ts';

/** Budget in the test configuration (vitest.config.mts). */
const { ratePerMinute: RATE_PER_MINUTE, burst: BURST, gatewayFloor } = getConfig(env).budget;
/** What visitors may spend of the burst: all but the gateway's reserve (its floor). */
const PUBLIC_RESERVE = BURST - Math.floor(BURST * gatewayFloor);

beforeEach(() => resetWorld());

/**
 * Sets what visitors may spend of the v2 bucket as of now (white-box: keeps the timing-sensitive tests deterministic
 * on a slow machine). The gateway's reserve is untouched: public misses never spend it.
 */
async function emptyBucket(tokens = 0): Promise<void> {
  await runInDurableObject(budgetStub(env), (object) => {
    const bucket = (object as unknown as { buckets: Map<string, { tokens: { public: number; shared: number }; last: number }> })
      .buckets.get('v2')!;
    bucket.tokens.public = tokens;
    bucket.tokens.shared = 0;
    bucket.last = Date.now();
  });
}

describe('shared reads', () => {
  it('N concurrent misses on one key make one upstream call', async () => {
    const player = (await players(SITE))[0]!;
    const before = callsTo(await stats(), 'players/:player');
    const responses = await Promise.all(Array.from({ length: 25 }, (_, i) =>
      api(`/api/sites/${SITE}/players/${player.id}`, { ip: `192.0.2.${100 + i}` })));
    for (const r of responses) expect(r.status).toBe(200);
    expect(new Set(await Promise.all(responses.map((r) => r.text()))).size).toBe(1);
    expect(callsTo(await stats(), 'players/:player')).toBe(before + 1);
  });

  it('identical calls from different isolates share one upstream request in the object', async () => {
    const player = (await players(SITE))[0]!;
    // A slow upstream keeps the first call in flight while the others arrive.
    const slow = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify({ latency_ms: 300 }),
      headers: { 'content-type': 'application/json' } });
    await slow.body?.cancel();
    const before = callsTo(await stats(), 'players/:player');
    const stub = budgetStub(env);
    const results = (await Promise.all(Array.from({ length: 12 }, (_, i) => stub.call({
      lane: 'public', caller: `isolate-${i}`, call: { api: 'v2', op: 'getPlayer', site: SITE, id: player.id },
    })))) as BudgetResult[];
    for (const r of results) expect(r).toMatchObject({ ok: true, value: { id: player.id } });
    expect(callsTo(await stats(), 'players/:player')).toBe(before + 1);
    expect((await stub.snapshot()).shared).toBe(11);
  });
});

describe('reads answered a moment ago', () => {
  it('a first miss right after an identical read takes its answer; a refresh asks again; a write forgets it', async () => {
    const player = (await players(SITE))[0]!;
    const stub = budgetStub(env);
    const call = { api: 'v2', op: 'getPlayer', site: SITE, id: player.id } as const;
    const count = async () => callsTo(await stats(), 'GET ', 'players/:player');
    const before = await count();

    // The first read, then a miss from another isolate whose KV read could not see that answer yet.
    expect(await stub.call({ lane: 'public', caller: 'a', call, acceptRecent: true })).toMatchObject({ ok: true });
    expect(await stub.call({ lane: 'public', caller: 'b', call, acceptRecent: true })).toMatchObject({ ok: true });
    expect(await count()).toBe(before + 1);

    // A refresh of an entry that went stale wants the upstream's current answer.
    expect(await stub.call({ lane: 'public', caller: 'c', call })).toMatchObject({ ok: true });
    expect(await count()).toBe(before + 2);

    // A write through the budget may change what any read returns: nothing remembered survives it.
    const write = await stub.call({ lane: 'gateway-write', caller: 'key', call: {
      api: 'v2', op: 'raw', method: 'PATCH', path: `/v2/sites/${SITE}/players/${player.id}/`,
      body: { metadata: { name: 'Renamed player' } },
    } });
    expect(write).toMatchObject({ ok: true, value: { status: 200 } });
    expect(await stub.call({ lane: 'public', caller: 'd', call, acceptRecent: true }))
      .toMatchObject({ ok: true, value: { metadata: { name: 'Renamed player' } } });
    expect(await count()).toBe(before + 3);
  });
});

describe('the global budget', () => {
  it('a burst far above 60/min makes at most the budget\'s calls upstream and no upstream 429', async () => {
    await resetWorld(60);
    const started = Date.now();
    // 150 visitors asking for 150 different (unknown) players: every one a miss needing a Management call (a media
    // miss needs none: media are read from the Delivery API).
    const ids = Array.from({ length: 150 }, (_, i) => `zz${String(i).padStart(6, '0')}`);
    const responses = await Promise.all(ids.map((id, i) =>
      api(`/api/sites/${SITE}/players/${id}`, { ip: `198.18.${Math.floor(i / 200)}.${i % 200}` })));
    const elapsedMinutes = (Date.now() - started) / 60_000;
    const s = await stats();
    const allowed = BURST + Math.ceil(elapsedMinutes * RATE_PER_MINUTE);
    expect(s.total).toBeLessThanOrEqual(allowed);
    expect(s.rate_limited).toBe(0);
    let refused = 0;
    for (const r of responses) {
      if (r.status === 429) {
        refused += 1;
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        await expectError(r, 429, 'rate_limited');
      } else {
        await expectError(r, 404, 'not_found');
      }
    }
    expect(refused).toBeGreaterThanOrEqual(150 - allowed);
  });

  it('waits in line for a bounded time, then answers 429 rate_limited with Retry-After', async () => {
    const stub = budgetStub(env);
    // Spend the visitors' reserve.
    await Promise.all(Array.from({ length: PUBLIC_RESERVE }, (_, i) => stub.call({
      lane: 'public', caller: 'drain', call: { api: 'v2', op: 'getMedia', site: SITE, id: `yy${String(i).padStart(6, '0')}` },
    })));
    // However long that took, the bucket is empty now: the next slot is 1.2 s away at 50/min, beyond the 400 ms bound.
    await emptyBucket();
    const before = (await stats()).total;
    const response = await api(`/api/sites/${SITE}/players/xx000001`);
    await expectError(response, 429, 'rate_limited');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await stats()).total).toBe(before);
    expect((await stub.snapshot()).refused).toBeGreaterThanOrEqual(1);
  });

  it('a miss the next slot can serve within the bound waits in line and is served', async () => {
    const stub = budgetStub(env);
    await Promise.all(Array.from({ length: PUBLIC_RESERVE }, (_, i) => stub.call({
      lane: 'public', caller: 'drain', call: { api: 'v2', op: 'getMedia', site: SITE, id: `uu${String(i).padStart(6, '0')}` },
    })));
    // Nearly a whole token back: the next slot is ~240 ms away at 50/min, inside the 400 ms bound.
    await emptyBucket(0.8);
    const before = (await stats()).total;
    const result = (await stub.call({
      lane: 'public', caller: 'patient', call: { api: 'v2', op: 'getMedia', site: SITE, id: 'uu999999' },
    })) as BudgetResult;
    // It reached the upstream (which does not know the id) instead of being refused.
    expect(result).toEqual({ ok: false, failure: { kind: 'upstream', status: 404, retryAfterSeconds: null } });
    expect((await stats()).total).toBe(before + 1);
    expect((await stub.snapshot()).refused).toBe(0);
  });

  it('never spends what the upstream says is gone (svc-request-remaining)', async () => {
    await resetWorld(3); // the upstream now allows 3 a minute, far below our budget
    const stub = budgetStub(env);
    const results: BudgetResult[] = [];
    for (let i = 0; i < 6; i++) {
      results.push((await stub.call({
        lane: 'public', caller: 'c', call: { api: 'v2', op: 'getMedia', site: SITE, id: `ww${String(i).padStart(6, '0')}` },
      })) as BudgetResult);
    }
    const s = await stats();
    expect(s.total).toBe(3);
    expect(s.rate_limited).toBe(0);
    expect(results.slice(3).every((r) => !r.ok && r.failure.kind === 'budget')).toBe(true);
  });

  it('pauses after an upstream 429 for its Retry-After', async () => {
    // The playlists a player request reads for membership are held first: the one call counted here is the player's.
    await boundPlaylists(SITE);
    const before = (await stats()).total;
    const fault = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify({ force_429: true }),
      headers: { 'content-type': 'application/json' } });
    await fault.body?.cancel();
    const first = await api(`/api/sites/${SITE}/players/vv000001`);
    await expectError(first, 429, 'rate_limited');
    const afterFirst = (await stats()).total;
    expect(afterFirst).toBe(before + 1);
    const second = await api(`/api/sites/${SITE}/players/vv000002`);
    await expectError(second, 429, 'rate_limited');
    expect((await stats()).total).toBe(afterFirst);
    expect((await budgetStub(env).snapshot()).pausedUntil.v2).toBeGreaterThan(Date.now());
  });
});

describe('lanes', () => {
  function waiter(lane: Lane, caller: string, log: string[]) {
    return { lane, caller, grant: () => log.push(`${lane}:${caller}`), refuse: () => log.push(`refused ${caller}`) };
  }

  it('keeps visitors and gateway keys in separate shares; in the gateway\'s, writes go before reads', () => {
    const queue = new LaneQueue();
    const log: string[] = [];
    queue.push(waiter('gateway-read', 'k1', log));
    queue.push(waiter('public', 'v1', log));
    queue.push(waiter('gateway-write', 'k1', log));
    queue.push(waiter('public', 'v2', log));
    expect([queue.size, queue.sizeOf('public'), queue.sizeOf('gateway')]).toEqual([4, 2, 2]);
    // A gateway write joining now has only the queued write of its own share ahead of it, whatever visitors wait.
    expect(queue.ahead('gateway-write')).toBe(1);
    expect(queue.ahead('gateway-read')).toBe(2);
    expect(queue.ahead('public')).toBe(2);
    while (queue.sizeOf('gateway')) queue.shift('gateway')!.grant();
    expect(log).toEqual(['gateway-write:k1', 'gateway-read:k1']);
    expect(queue.shift('gateway')).toBeUndefined();
    while (queue.sizeOf('public')) queue.shift('public')!.grant();
    expect(log.slice(2)).toEqual(['public:v1', 'public:v2']);
  });

  it('takes turns between callers inside a lane, so one busy caller cannot starve the others', () => {
    const queue = new LaneQueue();
    const log: string[] = [];
    for (let i = 0; i < 5; i++) queue.push(waiter('gateway-read', 'import-job', log));
    queue.push(waiter('gateway-read', 'dashboard', log));
    queue.push(waiter('gateway-read', 'cms', log));
    for (let i = 0; i < 4; i++) queue.shift('gateway')!.grant();
    expect(log).toEqual(['gateway-read:import-job', 'gateway-read:dashboard', 'gateway-read:cms', 'gateway-read:import-job']);
  });

  it('refills at the configured rate and never holds more than the burst', () => {
    const bucket = new TokenBucket(60, 3, 0);
    expect([bucket.tryTake(0), bucket.tryTake(0), bucket.tryTake(0), bucket.tryTake(0)]).toEqual([true, true, true, false]);
    expect(bucket.waitMs(0)).toBe(1000);
    expect(bucket.tryTake(1000)).toBe(true);
    expect(bucket.tryTake(100_000) && bucket.tryTake(100_000) && bucket.tryTake(100_000)).toBe(true);
    expect(bucket.tryTake(100_000)).toBe(false);
  });
});

describe('floors: reserved shares of one bucket', () => {
  /** 60/min, a burst of 10, floors of 0.3 each: reserves of 3 per side and 4 shared. */
  const bucket = () => new TokenBucket(60, 10, 0, { public: 0.3, gateway: 0.3 });
  const takeAll = (b: TokenBucket, now: number, share: Share) => {
    let n = 0;
    while (b.tryTake(now, share)) n += 1;
    return n;
  };
  const other = (share: Share): Share => (share === 'public' ? 'gateway' : 'public');

  it.each(['public', 'gateway'] as const)('a burst from %s takes the shared pool and its own reserve, never the other side\'s', (side) => {
    const b = bucket();
    expect(takeAll(b, 0, side)).toBe(7);
    expect(b.available(0, other(side))).toBe(3);
    expect(takeAll(b, 0, other(side))).toBe(3);
  });

  it.each(['public', 'gateway'] as const)('a flood from %s leaves the other side its reserve and its floor of the rate', (side) => {
    const b = bucket();
    let flood = 0;
    let quiet = 0;
    // One minute of flood while the other side is idle: it still finds its whole reserve.
    for (let t = 0; t <= 60_000; t += 100) flood += takeAll(b, t, side);
    expect(b.available(60_000, other(side))).toBeGreaterThanOrEqual(3);
    // Then both spend all they can every 100 ms for 20 s, the flooding side always first.
    for (let t = 60_100; t <= 80_000; t += 100) {
      flood += takeAll(b, t, side);
      quiet += takeAll(b, t, other(side));
    }
    // The quiet side: its reserve (3) and 0.3 × 60/min for 20 s (6), less what has not made a whole call yet.
    expect(quiet).toBeGreaterThanOrEqual(3 + 6 - 1);
    // And nobody got more than the bucket holds: the burst and 60/min for 80 s.
    expect(flood + quiet).toBeLessThanOrEqual(10 + 80);
  });

  it('a side that is idle leaves the other the whole rate once its reserve is full', () => {
    const b = bucket();
    expect(takeAll(b, 0, 'public')).toBe(7);
    // The gateway is idle and its reserve full: all 60/min go to visitors.
    expect(b.waitMs(0, 0, 'public')).toBe(1000);
    expect(takeAll(b, 5_000, 'public')).toBe(5);
  });

  it('never hands out more than the burst plus the rate, however the two sides take turns', () => {
    const b = new TokenBucket(50, 10, 0, { public: 0.3, gateway: 0.3 });
    let taken = 0;
    // Every 100 ms for ten minutes both sides take all they can, in an order that changes every step.
    for (let t = 0; t <= 600_000; t += 100) {
      const first: Share = (t / 100) % 3 === 0 ? 'gateway' : 'public';
      taken += takeAll(b, t, first) + takeAll(b, t, other(first));
      expect(taken).toBeLessThanOrEqual(10 + (t * 50) / 60_000 + 1e-9);
    }
    expect(taken).toBeGreaterThanOrEqual(10 + 500 - 2);
  });

  it('a pause and the upstream\'s allowance hold for both sides', () => {
    const b = bucket();
    b.pause(5_000, 0);
    expect(b.tryTake(1_000, 'gateway')).toBe(false);
    expect(b.tryTake(1_000, 'public')).toBe(false);
    expect(b.waitMs(1_000, 0, 'gateway')).toBeGreaterThanOrEqual(4_000);
    const c = bucket();
    c.learnRemaining(2, 0, 0);
    expect(c.tryTake(0, 'gateway')).toBe(true);
    expect(c.tryTake(0, 'public')).toBe(true);
    expect(c.tryTake(0, 'public')).toBe(false);
    expect(c.tryTake(0, 'gateway')).toBe(false);
  });

  it('without floors it is one bucket for everyone', () => {
    const b = new TokenBucket(60, 4, 0);
    expect(takeAll(b, 0, 'gateway')).toBe(4);
    expect(takeAll(b, 0, 'public')).toBe(0);
  });
});

describe('feed variants per playlist', () => {
  const WINDOW = 60_000;

  it('admits up to the cap of distinct variants per window, then refuses new ones with the wait', () => {
    const limiter = new VariantLimiter();
    expect(limiter.admit('s:p', 'a', 2, WINDOW, 0)).toEqual({ ok: true });
    expect(limiter.admit('s:p', 'b', 2, WINDOW, 10_000)).toEqual({ ok: true });
    expect(limiter.admit('s:p', 'c', 2, WINDOW, 20_000)).toEqual({ ok: false, retryAfterSeconds: 40 });
    // A variant already admitted is admitted again (its refreshes, other isolates' misses).
    expect(limiter.admit('s:p', 'a', 2, WINDOW, 30_000)).toEqual({ ok: true });
    // Other playlists have their own count.
    expect(limiter.admit('s:q', 'c', 2, WINDOW, 30_000)).toEqual({ ok: true });
    // Once the oldest admission has left the window, a new variant takes its place.
    expect(limiter.admit('s:p', 'c', 2, WINDOW, 60_000)).toEqual({ ok: true });
    expect(limiter.admit('s:p', 'd', 2, WINDOW, 60_000)).toEqual({ ok: false, retryAfterSeconds: 10 });
  });

  it('a cap of 0 admits no variant at all', () => {
    expect(new VariantLimiter().admit('s:p', 'a', 0, WINDOW, 0)).toEqual({ ok: false, retryAfterSeconds: 60 });
  });
});
