// The budget object's parts, each on its own (worker/budget/): no Durable Object, no upstream, and the time stepped by
// hand, so nothing here depends on how fast this machine is. The object's behaviour as a whole is budget.test.ts's
// and budget-reserve.test.ts's.
import { describe, expect, it } from 'vitest';
import type { BudgetConfig } from '../../worker/config.ts';
import { Admission, BudgetExhausted } from '../../worker/budget/admission.ts';
import { Coalescer, PARTIAL_MS, RECENT_MS } from '../../worker/budget/coalescing.ts';
import { describeFailure, refuseUnconfigured, type UpstreamEnv } from '../../worker/budget/execute.ts';
import { Reservations } from '../../worker/budget/reservations.ts';
import { emptyStats, ServedLedger, type Performed } from '../../worker/budget/stats.ts';
import { TokenBucket } from '../../worker/budget/token-bucket.ts';
import { DEFAULT_PAUSE_MS, pauseStorageKey, UpstreamSignals } from '../../worker/budget/upstream-signals.ts';
import { GeoApiError, UpstreamRequestError, V2ApiError } from '../../worker/upstream/index.ts';

/** 60/min (a token a second), burst 10, floors 0.3 each: visitors may hold 7 at once. Two seconds' wait. */
const CONFIG: BudgetConfig = {
  ratePerMinute: 60, burst: 10, maxWaitMs: 2000, gatewayFloor: 0.3, publicFloor: 0.3,
  geoRatePerMinute: 60, geoBurst: 5, geoLookupsPerNetwork: 10, geoNetworkWindowSeconds: 600, upstreamTimeoutMs: 1000,
};

function clock(start = 1_000_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

describe('coalescing', () => {
  it('identical concurrent reads share one request; a kept answer is remembered for RECENT_MS', async () => {
    const { time, now } = clock();
    const coalescer = new Coalescer<string>(now);
    let started = 0;
    const start = () => {
      started += 1;
      return Promise.resolve('answer');
    };
    const first = coalescer.share('k', start, () => true);
    const second = coalescer.share('k', start, () => true);
    expect(first.joined).toBe(false);
    expect(second.joined).toBe(true);
    expect(await second.answer).toBe('answer');
    expect(started).toBe(1);
    expect(coalescer.recentAnswer('k', time.now)).toBe('answer');
    expect(coalescer.recentAnswer('k', time.now + RECENT_MS)).toBeUndefined();
  });

  it('an answer not kept is not remembered, and a write forgets what was', async () => {
    const { time, now } = clock();
    const coalescer = new Coalescer<string>(now);
    await coalescer.share('failed', () => Promise.resolve('error'), () => false).answer;
    expect(coalescer.recentAnswer('failed', time.now)).toBeUndefined();
    coalescer.remember('partial', 'read', PARTIAL_MS);
    expect(coalescer.recentAnswer('partial', time.now + PARTIAL_MS - 1)).toBe('read');
    // A shorter memory never cuts a longer one.
    coalescer.remember('partial', 'read', RECENT_MS);
    expect(coalescer.recentAnswer('partial', time.now + PARTIAL_MS - 1)).toBe('read');
    coalescer.forgetRecent();
    expect(coalescer.recentAnswer('partial', time.now)).toBeUndefined();
  });
});

describe('served ledger', () => {
  it('a call is served once; clearing keeps the numbering going', () => {
    const ledger = new ServedLedger();
    const a = ledger.open();
    expect(ledger.serve(a)).toBe(true);
    expect(ledger.serve(a)).toBe(false);
    expect(ledger.serve(null)).toBe(false);
    const b = ledger.open();
    ledger.clear();
    expect(ledger.serve(b)).toBe(false);
    expect(ledger.open()).toBeGreaterThan(b);
  });
});

describe('upstream signals', () => {
  const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

  it('a 503 with Retry-After pauses the bucket and marks the upstream down; a 429 only pauses', () => {
    const now = 1_000_000;
    const signals = new UpstreamSignals();
    const v2 = new TokenBucket(60, 10, now);
    signals.learn('v2', v2, answer(503, { 'retry-after': '30' }), now, () => 0);
    expect(v2.pausedUntilMs).toBe(now + 30_000);
    expect(signals.isDown('v2', now + 29_999)).toBe(true);
    expect(signals.isDown('v2', now + 30_000)).toBe(false);
    const geo = new TokenBucket(60, 10, now);
    signals.learn('geo', geo, answer(429), now, () => 0);
    expect(geo.pausedUntilMs).toBe(now + DEFAULT_PAUSE_MS);
    expect(signals.isDown('geo', now)).toBe(false);
    signals.forgetDowntime();
    expect(signals.isDown('v2', now)).toBe(false);
  });

  it('what the upstream says is left bounds the bucket, less the calls in flight and held', () => {
    const now = 1_000_000;
    const signals = new UpstreamSignals();
    const bucket = new TokenBucket(60, 10, now);
    signals.started('v2');
    signals.started('v2');
    // Two in flight (one of them this answer's) and three held: of 5 left, 1 is ours to spend.
    signals.learn('v2', bucket, answer(200, { 'svc-request-remaining': '5' }), now, () => 3);
    expect(bucket.take(now)).not.toBeNull();
    expect(bucket.take(now)).toBeNull();
  });

  it('keeps the deployed storage layout', () => {
    expect(pauseStorageKey('v2')).toBe('pausedUntil:v2');
    expect(pauseStorageKey('geo')).toBe('pausedUntil:geo');
  });
});

describe('execution: failure data', () => {
  it('classifies errors by status and kind, never by message', () => {
    const limit = { limit: null, remaining: null, reset: null };
    expect(describeFailure(new V2ApiError(429, [], 7, limit))).toEqual({ kind: 'upstream', status: 429, retryAfterSeconds: 7 });
    const wrapped = new UpstreamRequestError('network', 'x', null, { cause: new GeoApiError(503, null) });
    expect(describeFailure(wrapped)).toEqual({ kind: 'upstream', status: 503, retryAfterSeconds: null });
    expect(describeFailure(new UpstreamRequestError('timeout', 'x'))).toEqual({ kind: 'transport', reason: 'timeout' });
  });

  it('refuses calls that would spend a slot for nothing', () => {
    const env: UpstreamEnv = { API_BASE_URL: 'http://v2.test', API_SECRET: 's' };
    expect(refuseUnconfigured(env, { api: 'v2', op: 'getPlayer', site: 'site0001', id: 'player01' })).toBeNull();
    expect(refuseUnconfigured(env, { api: 'geo', op: 'lookup', ip: '192.0.2.1' })).toEqual({ kind: 'unconfigured' });
    const geoEnv = { ...env, GEO_API_URL: 'http://geo.test', GEO_API_KEY: 'k' };
    expect(refuseUnconfigured(geoEnv, { api: 'geo', op: 'lookup', ip: 'not an address' }))
      .toEqual({ kind: 'upstream', status: 400, retryAfterSeconds: null });
  });
});

describe('admission', () => {
  it('takes at once, queues in turn and hands out as the bucket refills, or refuses what cannot come in time', async () => {
    const { time, now } = clock();
    const admission = new Admission(now, () => CONFIG);
    // Visitors hold 7 of the burst: all taken at once.
    await admission.acquire('v2', 'public', 'a', 7);
    const queued = admission.acquire('v2', 'public', 'b');
    expect(admission.queued('v2')).toBe(1);
    expect(admission.queued('v2', 'gateway')).toBe(0);
    time.now += 1000;
    admission.pump('v2');
    await expect(queued).resolves.toBeTruthy();
    expect(admission.queued('v2')).toBe(0);
    // More than can refill within the wait bound: refused at once, with the wait (three tokens, three seconds).
    const refused = admission.acquire('v2', 'public', 'c', 3);
    await expect(refused).rejects.toBeInstanceOf(BudgetExhausted);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 3 });
    expect(admission.queued('v2')).toBe(0);
  });
});

describe('reservations', () => {
  it('a load is reserved whole, joined by the same key, and gives back what it did not spend', async () => {
    const { time, now } = clock();
    const admission = new Admission(now, () => CONFIG);
    const stats = emptyStats();
    const kept: string[] = [];
    const reservations = new Reservations({
      now, config: () => CONFIG, admission, stats: () => stats,
      refusal: (_api, error) => ({ kind: 'budget', retryAfterSeconds: error.retryAfterSeconds }),
      served: () => undefined,
      keep: (key) => kept.push(key),
    });
    const request = { lane: 'public' as const, caller: 'v', api: 'v2' as const, key: 'feed', calls: 3, acceptRecent: true };
    const admitted = await reservations.begin(request, time.now);
    expect(admitted).toMatchObject({ ok: true, reserved: 3 });
    expect(await reservations.begin(request, time.now)).toEqual(admitted);
    expect(stats.loads.joined).toBe(1);
    const id = admitted.ok ? admitted.id : '';
    const load = reservations.get(id)!;
    expect(reservations.spend('v2', load)).toBe(true);
    const read: Performed = { result: { ok: true, value: 1 }, serial: 1 };
    reservations.record(load, read, 'call');
    expect(reservations.held('v2')).toBe(2);
    // One member stops short: its read is kept; the other finishes, and the two unspent tokens go back.
    reservations.end(id, false);
    expect(kept).toEqual(['call']);
    reservations.end(id, true);
    expect(stats.refunded).toBe(2);
    expect(reservations.held('v2')).toBe(0);
    expect(reservations.get(id)).toBeUndefined();
  });
});
