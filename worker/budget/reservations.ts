/**
 * Loads: a reservation of every upstream call an answer needs (a feed, a media with its renditions and tracks),
 * admitted whole, queued whole or refused, so budget is not spent on loads that run out half-way. Concurrent loads of
 * one key join one reservation; its calls spend it; what is left goes back when the last member ends or the
 * reservation expires. The reads of a load that had to stop are handed to `keep` for the next attempt.
 */
import type { BudgetConfig } from '../config.ts';
import { Admission, BudgetExhausted } from './admission.ts';
import type { Api, LoadAdmission, LoadRequest, UpstreamFailure } from './calls.ts';
import { RECENT_MS } from './coalescing.ts';
import { shareOf, type Lane, type Waiter } from './lanes.ts';
import type { BudgetStats, Performed } from './stats.ts';
import { heldBy, spendOne, type Draw } from './token-bucket.ts';
import { count } from '../metrics/index.ts';

/** Tokens are fractions; see token-bucket.ts. */
const EPSILON = 1e-9;

/** A load's reservation. */
export interface Load {
  id: string;
  key: string;
  api: Api;
  lane: Lane;
  caller: string;
  startedAt: number;
  /** Tokens reserved and not spent yet, by the pool each came from; null while the load queues. */
  draw: Draw | null;
  expiresAt: number;
  /** Requests running this load (concurrent loads of one key join it), and how many of them a caller waits for. */
  members: number;
  waiting: number;
  /** Its place in line while it queues (raised a tier when a caller who waits joins a background refresh). */
  waiter: Waiter | null;
  admission: Promise<LoadAdmission>;
  /** The reads it has, by call key. */
  results: Map<string, Performed>;
  /** The upstream calls it made or took over: served when it finishes. */
  serials: Set<number>;
}

export interface ReservationDeps {
  now: () => number;
  config: () => BudgetConfig;
  admission: Admission;
  stats: () => BudgetStats;
  /** The refusal a caller gets for `error` (it says whether the upstream is down). */
  refusal: (api: Api, error: BudgetExhausted) => UpstreamFailure;
  /** An upstream call's result reached a caller. */
  served: (serial: number) => void;
  /** Keeps a read of a load that had to stop, for its next attempt. */
  keep: (key: string, performed: Performed) => void;
}

export class Reservations {
  private readonly byId = new Map<string, Load>();
  private readonly byKey = new Map<string, Load>();

  constructor(private readonly deps: ReservationDeps) {}

  get(id: string | undefined): Load | undefined {
    return id ? this.byId.get(id) : undefined;
  }

  /**
   * Reserves the calls a load needs (at most what its side of the bucket can hold at once; any further call of the
   * load queues first in line). Admitted whole, queued whole for at most `max_wait_ms`, or refused with the wait. A
   * load of a key already admitted or queued is joined instead: one reservation, every member's calls share it.
   */
  begin(request: LoadRequest, now: number): Promise<LoadAdmission> {
    const { admission, stats } = this.deps;
    const existing = this.byKey.get(request.key);
    // A refresh joins only a load that has just begun: it wants the upstream's current answer.
    if (existing && (request.acceptRecent || now - existing.startedAt <= RECENT_MS)) {
      existing.members += 1;
      if (!request.background) {
        existing.waiting += 1;
        // A load nobody waited for (a background refresh) that a waiting caller joins moves up to that caller's tier.
        if (existing.waiter) admission.promote(existing.api, existing.waiter);
      }
      stats().loads.joined += 1;
      return existing.admission;
    }
    const { api, lane, caller, key } = request;
    const bucket = admission.bucket(api);
    const need = Math.max(1, Math.min(Math.ceil(request.calls), bucket.holdable(shareOf(lane))));
    const load: Load = {
      id: crypto.randomUUID(), key, api, lane, caller, startedAt: now, draw: null, expiresAt: Number.POSITIVE_INFINITY,
      members: 1, waiting: request.background ? 0 : 1, waiter: null, admission: Promise.resolve({ ok: false, failure: { kind: 'unconfigured' } }),
      results: new Map(), serials: new Set(),
    };
    this.byId.set(load.id, load);
    this.byKey.set(key, load);
    load.admission = admission.acquire(api, lane, caller, need, request.background ? 2 : 1, (waiter) => {
      load.waiter = waiter;
      count('budget_waits', { side: shareOf(lane) });
    }).then((draw): LoadAdmission => {
      load.waiter = null;
      load.draw = draw;
      const ttl = this.ttl(need);
      load.expiresAt = this.deps.now() + ttl;
      stats().reserved += need;
      stats().loads.admitted += 1;
      setTimeout(() => this.sweep(this.deps.now()), ttl + 10);
      return { ok: true, id: load.id, reserved: need };
    }, (error: unknown): LoadAdmission => {
      this.forget(load);
      if (!(error instanceof BudgetExhausted)) throw error;
      stats().refused += 1;
      stats().loads.refused += 1;
      count('budget_refusals', { side: shareOf(lane) });
      return { ok: false, failure: this.deps.refusal(api, error) };
    });
    return load.admission;
  }

  /**
   * One member of a load is done. `finished`: it made its answer (or learned there is none), so every call the load
   * used has been served. Otherwise it had to stop: its reads are kept for the next attempt. When the last member is
   * done, the unspent tokens go back.
   */
  end(id: string, finished: boolean): void {
    const load = this.byId.get(id);
    // Expired already (and its tokens returned), or never admitted.
    if (!load || !load.draw) return;
    if (finished) {
      for (const serial of load.serials) this.deps.served(serial);
      this.deps.stats().loads.finished += 1;
    } else {
      this.keepPartial(load);
      this.deps.stats().loads.abandoned += 1;
    }
    load.members -= 1;
    if (load.members <= 0) this.close(load);
  }

  /** A call of `load` had an upstream call's outcome (its own, or one it took over): the load owns it. */
  record(load: Load, done: Performed, key?: string): void {
    if (done.serial !== null) load.serials.add(done.serial);
    if (key !== undefined && done.result.ok) load.results.set(key, done);
  }

  /** Spends one token of the load's reservation, if it holds one. Refuses while the upstream has asked for a pause. */
  spend(api: Api, load: Load | undefined): boolean {
    if (!load?.draw || load.api !== api || heldBy(load.draw) < 1 - EPSILON) return false;
    const now = this.deps.now();
    const pausedUntil = this.deps.admission.bucket(api).pausedUntilMs;
    if (pausedUntil > now) throw new BudgetExhausted((pausedUntil - now) / 1000);
    return spendOne(load.draw, ['shared', 'public', 'gateway']);
  }

  /** Tokens reserved by loads of `api` and not spent yet: calls that may still reach the upstream. */
  held(api: Api): number {
    let held = 0;
    for (const load of this.byId.values()) if (load.api === api) held += heldBy(load.draw);
    return held;
  }

  /** Reservations past their time (a request that crashed or hung up): their reads are kept, their tokens returned. */
  sweep(now: number): void {
    for (const load of this.byId.values()) {
      if (load.draw === null || load.expiresAt > now) continue;
      this.keepPartial(load);
      this.deps.stats().loads.expired += 1;
      this.close(load);
    }
  }

  clear(): void {
    this.byId.clear();
    this.byKey.clear();
  }

  /** Long enough for every reserved call to wait its turn once and run to its timeout. */
  private ttl(calls: number): number {
    const { maxWaitMs, upstreamTimeoutMs } = this.deps.config();
    return maxWaitMs + calls * upstreamTimeoutMs;
  }

  /** Keeps what an unfinished load read, so its next attempt need not spend it again. */
  private keepPartial(load: Load): void {
    for (const [key, done] of load.results) this.deps.keep(key, done);
  }

  /** Gives back what a load did not spend and forgets it. */
  private close(load: Load): void {
    const held = heldBy(load.draw);
    if (load.draw && held > EPSILON) {
      const draw = load.draw;
      this.deps.stats().refunded += held;
      load.draw = { public: 0, gateway: 0, shared: 0 };
      this.deps.admission.refund(load.api, draw);
    }
    this.forget(load);
  }

  private forget(load: Load): void {
    this.byId.delete(load.id);
    if (this.byKey.get(load.key) === load) this.byKey.delete(load.key);
  }
}
