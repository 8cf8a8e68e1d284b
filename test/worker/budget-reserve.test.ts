// A load of several upstream calls is admitted only when the budget can fund it whole (reserve, then spend),
// gives back what it did not spend, cannot hold tokens past its expiry, and leaves what it read for the next attempt
// when it has to stop. Deterministic: the budget object's clock is stepped by hand (it never moves by itself here),
// so no assertion depends on how fast this machine is.
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BudgetResult, LoadAdmission, LoadRequest, UpstreamCall } from '../../worker/budget/calls.ts';
import { LaneQueue, type Lane, type Tier } from '../../worker/budget/lanes.ts';
import { TokenBucket, type Draw, type Share } from '../../worker/budget/token-bucket.ts';
import { budgetStub } from '../../worker/budget/client.ts';
import { api, callsTo, config, resetWorld, SITE, stats } from './helpers.ts';
import { allMedia, isPublic, playlists, players } from './upstream-direct.ts';

/**
 * The budget these tests give the object (in place of the suite's own, vitest.config.mts): 50/min, burst 10, floors 0.3
 * each, so visitors may hold 7 at once; 400 ms wait.
 */
const TEST_BUDGET = { rate_per_minute: 50, burst: 10, max_wait_ms: 400, upstream_timeout_ms: 3000 };
const PUBLIC_HOLDABLE = 7;
const MAX_WAIT_MS = 400;
const UPSTREAM_TIMEOUT_MS = 3000;

/** The budget object's time, as the tests step it. */
let now = 0;

interface BudgetInternals {
  clock: () => number;
  bucket(api: 'v2' | 'geo'): TokenBucket;
}

async function inObject<T>(fn: (object: BudgetInternals) => T): Promise<T> {
  return runInDurableObject(budgetStub(env), (object) => fn(object as unknown as BudgetInternals));
}

/** What visitors may spend of the v2 bucket at the object's current time. */
const available = () => inObject((o) => o.bucket('v2').available(now, 'public'));
const snapshot = () => budgetStub(env).snapshot();

beforeEach(async () => {
  await resetWorld();
  now = Date.now();
  const budget = { ...JSON.parse(env.REELGATE_CONFIG), budget: TEST_BUDGET };
  await runInDurableObject(budgetStub(env), (object) => {
    (object as unknown as { env: typeof env }).env = { ...env, REELGATE_CONFIG: JSON.stringify(budget) };
  });
  await budgetStub(env).reset();
  await inObject((o) => {
    o.clock = () => now;
  });
});

afterEach(async () => {
  await runInDurableObject(budgetStub(env), (object) => {
    (object as unknown as { env: typeof env }).env = env;
    (object as unknown as BudgetInternals).clock = () => Date.now();
  });
  await budgetStub(env).reset();
});

function load(key: string, calls: number, extra: Partial<LoadRequest> = {}): Promise<LoadAdmission> {
  return budgetStub(env).beginLoad({ lane: 'public', caller: 'visitor', api: 'v2', key, calls, acceptRecent: true, ...extra });
}

function call(upstream: UpstreamCall, extra: { load?: string; acceptRecent?: boolean } = {}): Promise<BudgetResult> {
  return budgetStub(env).call({ lane: 'public', caller: 'visitor', call: upstream, acceptRecent: true, ...extra }) as Promise<BudgetResult>;
}

const getMedia = (id: string): UpstreamCall => ({ api: 'v2', op: 'getMedia', site: SITE, id });
const admitted = (a: LoadAdmission): string => {
  expect(a).toMatchObject({ ok: true });
  return (a as Extract<LoadAdmission, { ok: true }>).id;
};

describe('reservations in the token bucket', () => {
  const bucket = (rate = 0) => new TokenBucket(rate, 10, 0, { public: 0.3, gateway: 0.3 });

  it('takes several tokens at once or none, and never from the other side\'s reserve', () => {
    const b = bucket();
    expect(b.holdable('public')).toBe(7);
    expect(b.take(0, 'public', 5)).toEqual({ shared: 4, public: 1, gateway: 0 });
    expect(b.take(0, 'public', 3)).toBeNull();
    expect(b.available(0, 'public')).toBe(2);
    expect(b.available(0, 'gateway')).toBe(3);
  });

  it('a refund goes back to the pools the tokens came from, never above their caps, and not while paused', () => {
    const b = bucket();
    const draw = b.take(0, 'public', 7)!;
    expect(b.available(0, 'gateway')).toBe(3);
    b.refund({ ...draw }, 0);
    expect(b.available(0, 'public')).toBe(7);
    // Back where it came from: the gateway spending all it may (the shared pool and its reserve) leaves the visitors'
    // reserve whole.
    expect(b.take(0, 'gateway', 7)).toEqual({ shared: 4, gateway: 3, public: 0 });
    expect(b.available(0, 'public')).toBe(3);
    // Refunding what was never taken cannot overfill a pool.
    b.refund({ public: 5, gateway: 5, shared: 5 } satisfies Draw, 0);
    expect(b.available(0, 'public')).toBe(7);
    expect(b.available(0, 'gateway')).toBe(7);
    // The upstream asked for a pause while tokens were out: they do not come back (its window starts afresh).
    const [paused, same] = [bucket(60), bucket(60)];
    const held = paused.take(0, 'public', 3)!;
    same.take(0, 'public', 3);
    paused.pause(10_000, 0);
    same.pause(10_000, 0);
    paused.refund(held, 1_000);
    expect(paused.available(1_000, 'public')).toBe(same.available(1_000, 'public'));
  });

  it('reservations and refunds never let more calls through than the burst plus the rate', () => {
    const b = new TokenBucket(50, 10, 0, { public: 0.3, gateway: 0.3 });
    let spent = 0;
    const open: Array<{ draw: Draw; left: number }> = [];
    // Every 100 ms for ten minutes: loads of 1-3 calls are reserved by both sides, spend some, give the rest back.
    for (let t = 0, step = 0; t <= 600_000; t += 100, step++) {
      const share: Share = step % 3 === 0 ? 'gateway' : 'public';
      const draw = b.take(t, share, 1 + (step % 3));
      if (draw) open.push({ draw, left: 1 + (step % 3) });
      for (const reservation of open.splice(0, open.length - 2)) {
        const used = Math.min(reservation.left, step % 2 === 0 ? 1 : reservation.left);
        spent += used;
        // Spend shared first, as the budget object does, and give back the rest.
        let toSpend = used;
        for (const pool of ['shared', 'public', 'gateway'] as const) {
          const take = Math.min(toSpend, reservation.draw[pool]);
          reservation.draw[pool] -= take;
          toSpend -= take;
        }
        b.refund(reservation.draw, t);
      }
      expect(spent).toBeLessThanOrEqual(10 + (t * 50) / 60_000 + 1e-9);
    }
    expect(spent).toBeGreaterThan(300);
  });
});

describe('queue tiers', () => {
  const waiter = (lane: Lane, caller: string, tier: Tier, need: number, log: string[]) => ({
    lane, caller, tier, need, grant: () => log.push(`${caller}`), refuse: () => log.push(`refused ${caller}`),
  });

  it('serves a started load\'s next call, then waiting callers, then background refreshes; counts tokens ahead', () => {
    const queue = new LaneQueue();
    const log: string[] = [];
    queue.push(waiter('public', 'refresh', 2, 3, log));
    queue.push(waiter('public', 'miss', 1, 3, log));
    queue.push(waiter('public', 'single', 1, 1, log));
    queue.push(waiter('public', 'top-up', 0, 1, log));
    expect(queue.peek('public')!.caller).toBe('top-up');
    expect(queue.ahead('public', 0)).toBe(1);
    expect(queue.ahead('public', 1)).toBe(5);
    expect(queue.ahead('public', 2)).toBe(8);
    while (queue.sizeOf('public')) queue.shift('public')!.grant();
    expect(log).toEqual(['top-up', 'miss', 'single', 'refresh']);
  });
});

describe('admission', () => {
  it('reserves a load whole, or refuses it at once before anything is spent', async () => {
    const first = await load('media:a', 3);
    const second = await load('media:b', 3);
    admitted(first);
    admitted(second);
    expect(await available()).toBe(PUBLIC_HOLDABLE - 6);
    expect((await snapshot()).held.v2).toBe(6);
    const before = (await stats()).total;
    // One token left: three are 2.4 s of refill away, beyond the 400 ms wait.
    const third = await load('media:c', 3);
    expect(third).toMatchObject({ ok: false, failure: { kind: 'budget' } });
    expect((third as { failure: { retryAfterSeconds: number } }).failure.retryAfterSeconds).toBeGreaterThan(MAX_WAIT_MS / 1000);
    expect((await stats()).total).toBe(before);
    expect((await snapshot()).loads).toMatchObject({ admitted: 2, refused: 1 });
  });

  it('never reserves more than a side can hold: the rest of a big load goes first in line', async () => {
    expect(await load('big', 50)).toMatchObject({ ok: true, reserved: PUBLIC_HOLDABLE });
  });

  it('concurrent loads of one key share one reservation', async () => {
    const [a, b] = await Promise.all([load('feed:x', 3), load('feed:x', 3)]);
    expect(admitted(a)).toBe(admitted(b));
    expect((await snapshot()).held.v2).toBe(3);
    expect((await snapshot()).loads).toMatchObject({ admitted: 1, joined: 1 });
  });

  it('a single call (gateway forwarding, geo, players) takes one token as before', async () => {
    const [player] = await players(SITE);
    expect(await call({ api: 'v2', op: 'getPlayer', site: SITE, id: player!.id })).toMatchObject({ ok: true });
    expect(await available()).toBe(PUBLIC_HOLDABLE - 1);
    expect((await snapshot()).loads.admitted).toBe(0);
  });
});

describe('spending and refunds', () => {
  it('a load\'s calls spend its reservation, and what it did not spend goes back when it ends', async () => {
    const id = admitted(await load('media:zz000001', 3));
    expect(await available()).toBe(PUBLIC_HOLDABLE - 3);
    // Unknown media: the upstream answers 404 and the load needs no more calls.
    expect(await call(getMedia('zz000001'), { load: id })).toMatchObject({ ok: false, failure: { status: 404 } });
    expect(await available()).toBe(PUBLIC_HOLDABLE - 3);
    await budgetStub(env).endLoad(id, true);
    expect(await available()).toBe(PUBLIC_HOLDABLE - 1);
    expect(await snapshot()).toMatchObject({ reserved: 3, refunded: 2, served: 1, granted: { v2: 1 }, held: { v2: 0 } });
  });

  it('a call beyond the reservation goes first in line, behind nothing, and is refused only when no token can come', async () => {
    const id = admitted(await load('media:x', 1));
    // Everyone else's tokens are gone too; the load's second call waits for no one but cannot be funded in 400 ms.
    await inObject((o) => o.bucket('v2').take(now, 'public', PUBLIC_HOLDABLE - 1));
    expect(await call(getMedia('yy000001'), { load: id })).toMatchObject({ ok: false, failure: { status: 404 } });
    expect(await call(getMedia('yy000002'), { load: id })).toMatchObject({ ok: false, failure: { kind: 'budget' } });
  });

  it('a reservation expires: its tokens return and a late end changes nothing', async () => {
    const id = admitted(await load('media:late', 3));
    expect((await snapshot()).held.v2).toBe(3);
    // The request that held it never comes back (it crashed, or its visitor hung up).
    now += MAX_WAIT_MS + 3 * UPSTREAM_TIMEOUT_MS + 1;
    const after = await snapshot();
    expect(after).toMatchObject({ held: { v2: 0 }, refunded: 3, loads: { expired: 1 } });
    await budgetStub(env).endLoad(id, true);
    expect((await snapshot()).refunded).toBe(3);
    // Its id is nobody's now: a call carrying it takes a token of its own like any other.
    expect(await call(getMedia('xx000009'), { load: id })).toMatchObject({ ok: false, failure: { status: 404 } });
    expect((await snapshot()).granted.v2).toBe(1);
  });
});

describe('partial results', () => {
  it('the next attempt of a load that had to stop reuses what it read; a refresh asks again', async () => {
    const ready = (await allMedia(SITE)).find((m) => isPublic(m))!;
    const count = async () => callsTo(await stats(), 'GET /v2/sites/:site/media/:media/');
    const before = await count();

    const first = admitted(await load(`media:${ready.id}`, 3));
    expect(await call(getMedia(ready.id), { load: first })).toMatchObject({ ok: true });
    // It ran out (say, a 429 further on): the read it has is kept.
    await budgetStub(env).endLoad(first, false);
    expect(await count()).toBe(before + 1);

    // Ten seconds later (well past the two-second memory of ordinary reads), the next first miss takes it.
    now += 10_000;
    const second = admitted(await load(`media:${ready.id}`, 3));
    expect(await call(getMedia(ready.id), { load: second })).toMatchObject({ ok: true, value: { id: ready.id } });
    expect(await count()).toBe(before + 1);
    await budgetStub(env).endLoad(second, true);
    // The call the first attempt made reached a visitor after all.
    expect(await snapshot()).toMatchObject({ granted: { v2: 1 }, served: 1 });

    // A refresh of a held entry wants the upstream's current answer.
    const refresh = admitted(await load(`media:${ready.id}`, 3, { acceptRecent: false, background: true }));
    expect(await call(getMedia(ready.id), { load: refresh, acceptRecent: false })).toMatchObject({ ok: true });
    expect(await count()).toBe(before + 2);
    await budgetStub(env).endLoad(refresh, true);

    // Kept for a while only.
    now += 31_000;
    const third = admitted(await load(`media:${ready.id}:again`, 3));
    expect(await call(getMedia(ready.id), { load: third })).toMatchObject({ ok: true });
    expect(await count()).toBe(before + 3);
  });

  it('feeds needing more calls than a visitor may reserve finish across attempts with no call spent twice', async () => {
    // The playlists under no policy of their own (recommendations needs four calls, one more than it reserves).
    const bound = new Set(Object.keys(config.sites[SITE]!.playlists ?? {}));
    const open = (await playlists(SITE)).filter((p) => !bound.has(p.id));
    expect(open.some((p) => p.playlist_type === 'recommendations')).toBe(true);
    const before = await stats();
    let refusals = 0;
    for (const playlist of open) {
      for (let attempt = 0; ; attempt++) {
        expect(attempt).toBeLessThan(20);
        const response = await api(`/api/sites/${SITE}/playlists/${playlist.id}`);
        await response.arrayBuffer();
        if (response.status === 200) break;
        expect(response.status).toBe(429);
        refusals += 1;
        // What a polite client does: come back after Retry-After (here: step the budget's clock that far).
        now += Number(response.headers.get('retry-after')) * 1000;
      }
    }
    const after = await stats();
    const spent = (route: string) => (after.calls[route] ?? 0) - (before.calls[route] ?? 0);
    // Each playlist read once untyped and once typed: no load started over from scratch. That includes the site's
    // policy-bound playlists, whose members every feed request reads (worker/geo/membership.ts).
    expect(spent('GET /v2/sites/:site/playlists/:playlist/')).toBe(open.length + bound.size);
    expect(spent('GET /v2/sites/:site/playlists/:playlist/:playlist_type/')).toBe(open.length + bound.size);
    expect(refusals).toBeGreaterThan(0);
    // Every upstream call went into an answer a visitor received (geo lookups for items under a policy included).
    const s = await snapshot();
    expect(s.served).toBe(s.granted.v2 + s.granted.geo);
    expect(after.rate_limited).toBe(0);
    expect(s.held.v2).toBe(0);
  });
});

describe('the upstream limit still holds', () => {
  it('a flood of media misses makes at most the budget\'s calls, no upstream 429, no 5xx, and wastes none', async () => {
    await inObject((o) => {
      o.clock = () => Date.now();
    });
    await resetWorld(60);
    const started = Date.now();
    const published = (await allMedia(SITE)).filter((m) => isPublic(m)).slice(0, 20).map((m) => m.id);
    const unknown = Array.from({ length: 20 }, (_, i) => `qq${String(i).padStart(6, '0')}`);
    const ids = [...published, ...published, ...unknown];
    const responses = await Promise.all(ids.map((id, i) =>
      api(`/api/sites/${SITE}/media/${id}`, { ip: `198.18.1.${i % 200}` })));
    const elapsedMinutes = (Date.now() - started) / 60_000;
    const statuses = await Promise.all(responses.map(async (r) => {
      await r.arrayBuffer();
      return r.status;
    }));
    const s = await stats();
    expect(s.total).toBeLessThanOrEqual(10 + Math.ceil(elapsedMinutes * 50));
    expect(s.rate_limited).toBe(0);
    // A media, a "not found", an honest 429, or 451: the ids include members of the site's bound playlists, which
    // these visitors' policies may refuse once the playlists are read (how soon depends on the budget's turns).
    expect(statuses.filter((status) => ![200, 404, 429, 451].includes(status))).toEqual([]);
    const budget = await snapshot();
    // Each load was admitted whole, so each finished: every call made reached a visitor.
    expect(budget.served).toBe(budget.granted.v2 + budget.granted.geo);
    expect(budget.loads.abandoned).toBe(0);
  });
});
