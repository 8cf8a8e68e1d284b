/**
 * The single door to the upstream. One instance (named "global") owns the budget of every isolate: a token bucket per
 * upstream API below its limit (the v2 one with a reserved floor for visitors and for gateway keys, so neither side can
 * starve the other), lanes with fair turns between callers, a bounded wait before a 429, one shared upstream request
 * for identical concurrent reads, and the bound on how many new feed variants a playlist may load. It performs the
 * calls itself with the typed clients, so the request that carries a secret is built here from scratch and never from
 * a client's headers.
 *
 * A load that needs several calls to make one answer (a feed, a media with its renditions and tracks) asks first for
 * a reservation of all of them (`beginLoad`): admitted whole, queued whole or refused, so budget is not spent on loads
 * that run out half-way. Its calls then spend the reservation; what is left goes back when it ends (`endLoad`) or
 * expires. Reads of a load that had to stop are kept a while for the next attempt.
 */
import { DurableObject } from 'cloudflare:workers';
import { getConfig, type BudgetConfig } from '../config.ts';
import type { Env } from '../env.ts';
import {
  GeoClient,
  GeoApiError,
  InvalidArgumentError,
  InvalidIpAddressError,
  UpstreamRequestError,
  V2ApiError,
  V2Client,
  parseIpAddress,
  parseRateLimit,
  parseRetryAfter,
} from '../upstream/index.ts';
import {
  dedupeKey, type BudgetRequest, type BudgetResult, type LoadAdmission, type LoadRequest, type RawAnswer, type UpstreamCall,
  type UpstreamFailure,
} from './calls.ts';
import { LaneQueue, shareOf, type Lane, type Tier, type Waiter } from './lanes.ts';
import { heldBy, spendOne, TokenBucket, type Draw, type Share } from './token-bucket.ts';
import { VariantLimiter, type VariantAdmission } from './variants.ts';
import { CallerShares, type CallerShare, type ShareTerms } from './caller-shares.ts';

type Api = UpstreamCall['api'];
const APIS: readonly Api[] = ['v2', 'geo'];
const SHARES: readonly Share[] = ['public', 'gateway'];
/** Without a Retry-After, a 429 pauses us for a whole upstream window. */
const DEFAULT_PAUSE_MS = 60_000;

class BudgetExhausted extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('budget exhausted');
  }
}

export interface BudgetStats {
  /** Upstream requests started, per API. */
  granted: Record<Api, number>;
  /** Calls answered from another caller's identical in-flight request. */
  shared: number;
  /** Calls refused for want of a slot. */
  refused: number;
  queued: Record<Api, number>;
  pausedUntil: Record<Api, number>;
  /** Upstream calls whose result reached a caller: a direct call's, or one a finished load used. */
  served: number;
  /** Tokens reserved by loads, and given back unspent (at the end of a load or when its reservation expired). */
  reserved: number;
  refunded: number;
  /** Tokens reserved now and not spent yet, per API. */
  held: Record<Api, number>;
  loads: { admitted: number; joined: number; refused: number; finished: number; abandoned: number; expired: number };
}

/** How long a finished read answers identical misses, and how many such answers are kept. */
const RECENT_MS = 2_000;
const RECENT_LIMIT = 500;
/**
 * How long the reads of a load that had to stop (out of budget, the upstream pausing us, its reservation expired)
 * answer the next attempt's first miss, so that attempt does not spend them again. They share `recent`'s bound.
 */
const PARTIAL_MS = 30_000;
/** Upstream calls remembered as not yet served (for `served`); the oldest are forgotten beyond this. */
const UNSERVED_LIMIT = 10_000;
/** Tokens are fractions; see token-bucket.ts. */
const EPSILON = 1e-9;

/** One upstream call's outcome and which call it was (null when none was made: refused, unconfigured). */
interface Performed {
  result: BudgetResult;
  serial: number | null;
}

/** A load's reservation. */
interface Load {
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

export class BudgetObject extends DurableObject<Env> {
  private readonly buckets = new Map<Api, TokenBucket>();
  private readonly queues = new Map<Api, LaneQueue>(APIS.map((api) => [api, new LaneQueue()]));
  private readonly timers = new Map<Api, ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Map<Api, number>(APIS.map((api) => [api, 0]));
  private readonly pending = new Map<string, Promise<Performed>>();
  /**
   * Reads answered a moment ago. A miss can arrive just after an identical call finished but before the caller's KV
   * write is visible (KV is eventually consistent, up to a minute across locations); it takes this answer instead of
   * spending another upstream call. Refreshes never take it, and any write through this object empties it, so no read
   * outlives a change. It also keeps the reads of a load that had to stop, for `PARTIAL_MS`.
   */
  private readonly recent = new Map<string, { performed: Performed; until: number }>();
  private readonly loads = new Map<string, Load>();
  private readonly loadsByKey = new Map<string, Load>();
  /** Upstream calls made, numbered; those made and not yet served, oldest first. */
  private serial = 0;
  private readonly unserved = new Set<number>();
  /** The object's time. Tests replace it (runInDurableObject) to step through expiries without waiting. */
  private clock: () => number = () => Date.now();
  /** Until when the upstream said it is down (a 503 with Retry-After), per API. */
  private readonly downUntil = new Map<Api, number>();
  /** Gateway keys' accounts: tokens held for each active key (caller-shares.ts). */
  private readonly shares = new CallerShares();
  private shareTimer: ReturnType<typeof setTimeout> | null = null;
  /** How long a gateway call waited for its key's next token (for its `Server-Timing`), by request. */
  private readonly shareWaits = new WeakMap<BudgetRequest, number>();
  private readonly variants = new VariantLimiter();
  private stats: BudgetStats = BudgetObject.emptyStats();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A pause the upstream asked for outlives an eviction of this object.
    ctx.blockConcurrencyWhile(async () => {
      for (const api of APIS) {
        const until = await ctx.storage.get<number>(`pausedUntil:${api}`);
        if (until && until > this.clock()) this.bucket(api).restorePause(until);
      }
    });
  }

  private static emptyStats(): BudgetStats {
    return {
      granted: { v2: 0, geo: 0 }, shared: 0, refused: 0, queued: { v2: 0, geo: 0 }, pausedUntil: { v2: 0, geo: 0 },
      served: 0, reserved: 0, refunded: 0, held: { v2: 0, geo: 0 },
      loads: { admitted: 0, joined: 0, refused: 0, finished: 0, abandoned: 0, expired: 0 },
    };
  }

  private get budget(): BudgetConfig {
    return getConfig(this.env).budget;
  }

  private bucket(api: Api): TokenBucket {
    const b = this.budget;
    // Only v2 calls come from gateway keys; every geo lookup is a visitor's, so the geo bucket has no reserves.
    const [rate, burst, floors] = api === 'v2'
      ? [b.ratePerMinute, b.burst, { public: b.publicFloor, gateway: b.gatewayFloor }]
      : [b.geoRatePerMinute, b.geoBurst, { public: 0, gateway: 0 }];
    let bucket = this.buckets.get(api);
    if (!bucket) {
      bucket = new TokenBucket(rate, burst, this.clock(), floors);
      this.buckets.set(api, bucket);
    } else {
      bucket.configure(rate, burst, floors);
    }
    return bucket;
  }

  /**
   * Performs one upstream call within the budget. Never throws: failures are data, so they cross RPC intact. A call of
   * a load (`request.load`) spends the load's reservation first, and takes any read the load already has.
   */
  async call(request: BudgetRequest): Promise<BudgetResult> {
    return this.run(request, false);
  }

  /** `call`; `viaShare`: a gateway key's call, which spends its own account or is refused (never queued). */
  private async run(request: BudgetRequest, viaShare: boolean): Promise<BudgetResult> {
    const now = this.clock();
    this.sweep(now);
    const load = request.load ? this.loads.get(request.load) : undefined;
    const key = dedupeKey(request.call);
    if (!key) {
      this.recent.clear();
      const done = await this.perform(request, load, viaShare);
      this.received(done, load);
      return done.result;
    }
    const own = load?.results.get(key);
    if (own) {
      this.stats.shared += 1;
      return own.result;
    }
    const remembered = request.acceptRecent ? this.recent.get(key) : undefined;
    if (remembered && remembered.until > now) {
      this.stats.shared += 1;
      this.received(remembered.performed, load, key);
      return remembered.performed.result;
    }
    let pending = this.pending.get(key);
    if (pending) {
      this.stats.shared += 1;
    } else {
      pending = this.perform(request, load, viaShare);
      this.pending.set(key, pending);
      void pending.then((done) => {
        this.pending.delete(key);
        if (done.result.ok) this.remember(key, done, RECENT_MS);
      });
    }
    const done = await pending;
    this.received(done, load, key);
    return done.result;
  }

  /** A caller has an upstream call's outcome: served now, or (inside a load) once the load finishes. */
  private received(done: Performed, load: Load | undefined, key?: string): void {
    if (!load) {
      this.markServed(done.serial);
      return;
    }
    if (done.serial !== null) load.serials.add(done.serial);
    if (key !== undefined && done.result.ok) load.results.set(key, done);
  }

  private markServed(serial: number | null): void {
    if (serial !== null && this.unserved.delete(serial)) this.stats.served += 1;
  }

  private remember(key: string, performed: Performed, forMs: number): void {
    const now = this.clock();
    const until = Math.max(now + forMs, this.recent.get(key)?.until ?? 0);
    if (!this.recent.has(key) && this.recent.size >= RECENT_LIMIT) {
      for (const [k, entry] of this.recent) if (entry.until <= now) this.recent.delete(k);
      if (this.recent.size >= RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    }
    this.recent.set(key, { performed, until });
  }

  /**
   * Reserves the calls a load needs (at most what its side of the bucket can hold at once; any further call of the
   * load queues first in line). Admitted whole, queued whole for at most `max_wait_ms`, or refused with the wait. A
   * load of a key already admitted or queued is joined instead: one reservation, every member's calls share it.
   */
  async beginLoad(request: LoadRequest): Promise<LoadAdmission> {
    const now = this.clock();
    this.sweep(now);
    if (!this.configured(request.api)) return { ok: false, failure: { kind: 'unconfigured' } };
    const existing = this.loadsByKey.get(request.key);
    // A refresh joins only a load that has just begun: it wants the upstream's current answer.
    if (existing && (request.acceptRecent || now - existing.startedAt <= RECENT_MS)) {
      existing.members += 1;
      if (!request.background) {
        existing.waiting += 1;
        this.promote(existing);
      }
      this.stats.loads.joined += 1;
      return existing.admission;
    }
    const { api, lane, caller, key } = request;
    const bucket = this.bucket(api);
    const need = Math.max(1, Math.min(Math.ceil(request.calls), bucket.holdable(shareOf(lane))));
    const load: Load = {
      id: crypto.randomUUID(), key, api, lane, caller, startedAt: now, draw: null, expiresAt: Number.POSITIVE_INFINITY,
      members: 1, waiting: request.background ? 0 : 1, waiter: null, admission: Promise.resolve({ ok: false, failure: { kind: 'unconfigured' } }),
      results: new Map(), serials: new Set(),
    };
    this.loads.set(load.id, load);
    this.loadsByKey.set(key, load);
    load.admission = this.acquire(api, lane, caller, need, request.background ? 2 : 1, (waiter) => {
      load.waiter = waiter;
    }).then((draw): LoadAdmission => {
      load.waiter = null;
      load.draw = draw;
      const ttl = this.reservationTtl(need);
      load.expiresAt = this.clock() + ttl;
      this.stats.reserved += need;
      this.stats.loads.admitted += 1;
      setTimeout(() => this.sweep(this.clock()), ttl + 10);
      return { ok: true, id: load.id, reserved: need };
    }, (error: unknown): LoadAdmission => {
      this.forget(load);
      if (!(error instanceof BudgetExhausted)) throw error;
      this.stats.refused += 1;
      this.stats.loads.refused += 1;
      return { ok: false, failure: this.exhausted(api, error) };
    });
    return load.admission;
  }

  /**
   * One member of a load is done. `finished`: it made its answer (or learned there is none), so every call the load
   * used has been served. Otherwise it had to stop: its reads are kept for the next attempt. When the last member is
   * done, the unspent tokens go back.
   */
  async endLoad(id: string, finished: boolean): Promise<void> {
    this.sweep(this.clock());
    const load = this.loads.get(id);
    // Expired already (and its tokens returned), or never admitted.
    if (!load || !load.draw) return;
    if (finished) {
      for (const serial of load.serials) this.markServed(serial);
      this.stats.loads.finished += 1;
    } else {
      this.keepPartial(load);
      this.stats.loads.abandoned += 1;
    }
    load.members -= 1;
    if (load.members <= 0) this.close(load);
  }

  /** Keeps what an unfinished load read, so its next attempt need not spend it again. */
  private keepPartial(load: Load): void {
    for (const [key, done] of load.results) this.remember(key, done, PARTIAL_MS);
  }

  /** Gives back what a load did not spend and forgets it. */
  private close(load: Load): void {
    const now = this.clock();
    const held = heldBy(load.draw);
    if (load.draw && held > EPSILON) {
      this.bucket(load.api).refund(load.draw, now);
      this.stats.refunded += held;
      load.draw = { public: 0, gateway: 0, shared: 0 };
      this.pump(load.api);
    }
    this.forget(load);
  }

  private forget(load: Load): void {
    this.loads.delete(load.id);
    if (this.loadsByKey.get(load.key) === load) this.loadsByKey.delete(load.key);
  }

  /** Reservations past their time (a request that crashed or hung up): their reads are kept, their tokens returned. */
  private sweep(now: number): void {
    for (const load of this.loads.values()) {
      if (load.draw === null || load.expiresAt > now) continue;
      this.keepPartial(load);
      this.stats.loads.expired += 1;
      this.close(load);
    }
  }

  /** Long enough for every reserved call to wait its turn once and run to its timeout. */
  private reservationTtl(calls: number): number {
    return this.budget.maxWaitMs + calls * this.budget.upstreamTimeoutMs;
  }

  /** A load nobody waited for (a background refresh) that a waiting caller joins moves up to that caller's tier. */
  private promote(load: Load): void {
    const waiter = load.waiter;
    if (!waiter || waiter.tier !== 2) return;
    const queue = this.queues.get(load.api)!;
    if (!queue.remove(waiter)) return;
    waiter.tier = 1;
    queue.push(waiter);
    this.pump(load.api);
  }

  /** Spends one token of the load's reservation, if it holds one. Refuses while the upstream has asked for a pause. */
  private spendReserved(api: Api, load: Load | undefined): boolean {
    if (!load?.draw || load.api !== api || heldBy(load.draw) < 1 - EPSILON) return false;
    const now = this.clock();
    const pausedUntil = this.bucket(api).pausedUntilMs;
    if (pausedUntil > now) throw new BudgetExhausted((pausedUntil - now) / 1000);
    return spendOne(load.draw, ['shared', 'public', 'gateway']);
  }

  /** Tokens reserved by loads and not spent yet: calls that may still reach the upstream. */
  private heldTokens(api: Api): number {
    let held = 0;
    for (const load of this.loads.values()) if (load.api === api) held += heldBy(load.draw);
    return api === 'v2' ? held + this.shares.held() : held;
  }

  /**
   * A gateway key's call: it spends a token held for the key (never another key's, never the visitors'), or is refused
   * at once with the time its next token is due; it is never queued. Returns the key's share for its headers.
   */
  async callWithShare(request: BudgetRequest): Promise<BudgetResult & { share: CallerShare }> {
    const now = this.clock();
    // The welcome seat is filled in its turn before a new key takes it over.
    this.fillShares(now);
    this.shares.join(request.caller, now, this.bucket('v2'));
    this.fillShares(now);
    const result = await this.run(request, true);
    const later = this.clock();
    this.fillShares(later);
    const waitedMs = this.shareWaits.get(request) ?? 0;
    return { ...result, share: { ...this.shares.figures(request.caller, later, this.shareTerms()), waitedMs } };
  }

  /** A gateway key's share without spending anything (refusals, replayed idempotent outcomes). */
  async shareOf(caller: string): Promise<CallerShare> {
    const now = this.clock();
    this.fillShares(now);
    return this.shares.figures(caller, now, this.shareTerms());
  }

  private shareTerms(): ShareTerms {
    const b = this.budget;
    return {
      guaranteedPerMinute: b.ratePerMinute * b.gatewayFloor,
      reserve: b.burst * b.gatewayFloor,
      pausedUntil: this.bucket('v2').pausedUntilMs,
    };
  }

  /**
   * Hands the gateway's whole tokens to the keys' accounts, and while some account wants more, comes back when the
   * next one is due (so the gateway's reserve never overflows into the shared pool while a key is owed a token).
   */
  private fillShares(now: number): void {
    if (this.shareTimer !== null) clearTimeout(this.shareTimer);
    this.shareTimer = null;
    const bucket = this.bucket('v2');
    if (!this.shares.fill(bucket, now, this.shareTerms())) return;
    const wait = Math.max(50, bucket.waitMs(now, 0, 'gateway'));
    this.shareTimer = setTimeout(() => this.fillShares(this.clock()), wait);
  }

  /** A token now: the key's own, or one of the shared pool that is there now and that no visitor waits for. */
  private takeShare(caller: string, now: number): boolean {
    this.fillShares(now);
    const bucket = this.bucket('v2');
    // The upstream asked for a pause: nothing is spent until it is over, held tokens included.
    if (bucket.pausedUntilMs > now) throw new BudgetExhausted((bucket.pausedUntilMs - now) / 1000);
    if (this.shares.spend(caller)) return true;
    return this.queues.get('v2')!.sizeOf('public') === 0 && bucket.take(now, 'gateway', 1, 'shared') !== null;
  }

  /**
   * Spends a token for the key's call. When its account is empty the call may wait, at most `max_wait_ms`, for the
   * key's next token or a shared one (the wait goes into its `Server-Timing`); when neither can come in that time it is
   * refused at once with when the key's own token is due. A client pacing on its headers never waits.
   */
  private async spendShare(request: BudgetRequest): Promise<void> {
    const { caller } = request;
    const started = this.clock();
    if (this.takeShare(caller, started)) return;
    const dueMs = this.shares.retryAfterSeconds(caller, started, this.shareTerms()) * 1000;
    const maxWait = this.budget.maxWaitMs;
    const soonest = Math.min(dueMs, this.bucket('v2').waitMs(started, 0, 'gateway'));
    if (soonest > maxWait) throw new BudgetExhausted(dueMs / 1000);
    const stepMs = Math.max(50, soonest);
    for (let waited = 0; waited < maxWait; waited += stepMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(stepMs, maxWait - waited)));
      const now = this.clock();
      if (this.takeShare(caller, now)) {
        this.shareWaits.set(request, Math.max(0, now - started));
        return;
      }
    }
    throw new BudgetExhausted(this.shares.retryAfterSeconds(caller, this.clock(), this.shareTerms()));
  }

  /**
   * May `scope` (a playlist) load the feed variant `variant` from the upstream now? At most `feed.max_variants`
   * distinct variants per playlist per `feed.variant_window_seconds`, for all isolates together.
   */
  async admitVariant(scope: string, variant: string): Promise<VariantAdmission> {
    const feed = getConfig(this.env).feed;
    return this.variants.admit(scope, variant, feed.maxVariants, feed.variantWindowSeconds * 1000, this.clock());
  }

  /** Counters for operators and tests. */
  async snapshot(): Promise<BudgetStats> {
    this.sweep(this.clock());
    const out = structuredClone(this.stats);
    for (const api of APIS) {
      out.queued[api] = this.queues.get(api)!.size;
      out.pausedUntil[api] = this.bucket(api).pausedUntilMs;
      out.held[api] = this.heldTokens(api);
    }
    return out;
  }

  /** Forgets every counter, waiter and pause (tests; an operator after rotating the secret). */
  async reset(): Promise<void> {
    for (const api of APIS) {
      clearTimeout(this.timers.get(api) ?? null);
      this.timers.delete(api);
      for (const waiter of this.queues.get(api)!.clear()) waiter.refuse();
      await this.ctx.storage.delete(`pausedUntil:${api}`);
    }
    this.buckets.clear();
    this.pending.clear();
    this.recent.clear();
    this.loads.clear();
    this.loadsByKey.clear();
    this.unserved.clear();
    this.downUntil.clear();
    if (this.shareTimer !== null) clearTimeout(this.shareTimer);
    this.shareTimer = null;
    this.shares.clear();
    this.variants.clear();
    this.stats = BudgetObject.emptyStats();
  }

  private async perform(request: BudgetRequest, load?: Load, viaShare = false): Promise<Performed> {
    const { lane, caller, call, background } = request;
    const unconfigured = this.checkConfigured(call);
    if (unconfigured) return { result: { ok: false, failure: unconfigured }, serial: null };
    try {
      // A load's call spends its reservation; beyond it, it goes first in line (what the load spent is wasted unless
      // it finishes). Anything else queues as a caller waiting (or, for a background refresh, behind them).
      // A gateway key's call spends its own account (caller-shares.ts).
      if (viaShare && call.api === 'v2') await this.spendShare(request);
      else if (!this.spendReserved(call.api, load)) await this.acquire(call.api, lane, caller, 1, load ? 0 : background ? 2 : 1);
    } catch (error) {
      if (error instanceof BudgetExhausted) {
        this.stats.refused += 1;
        return { result: { ok: false, failure: this.exhausted(call.api, error) }, serial: null };
      }
      throw error;
    }
    const serial = ++this.serial;
    this.unserved.add(serial);
    if (this.unserved.size > UNSERVED_LIMIT) this.unserved.delete(this.unserved.values().next().value!);
    this.stats.granted[call.api] += 1;
    this.inFlight.set(call.api, this.inFlight.get(call.api)! + 1);
    try {
      return { result: { ok: true, value: await this.execute(call) }, serial };
    } catch (error) {
      return { result: { ok: false, failure: this.describe(error) }, serial };
    } finally {
      this.inFlight.set(call.api, this.inFlight.get(call.api)! - 1);
    }
  }

  private exhausted(api: Api, error: BudgetExhausted): UpstreamFailure {
    const down = (this.downUntil.get(api) ?? 0) > this.clock();
    return { kind: 'budget', retryAfterSeconds: error.retryAfterSeconds, ...(down ? { upstreamDown: true } : {}) };
  }

  private configured(api: Api): boolean {
    return api === 'v2' ? Boolean(this.env.API_BASE_URL && this.env.API_SECRET) : Boolean(this.env.GEO_API_URL && this.env.GEO_API_KEY);
  }

  /** Refuses what would spend a slot for nothing: an unconfigured API, an address no lookup may be made for. */
  private checkConfigured(call: UpstreamCall): UpstreamFailure | null {
    if (!this.configured(call.api)) return { kind: 'unconfigured' };
    if (call.api === 'v2') return null;
    if (!parseIpAddress(call.ip)) return { kind: 'upstream', status: 400, retryAfterSeconds: null };
    return null;
  }

  /**
   * Takes `need` tokens at once for `lane`, now or in turn within `max_wait_ms`, or refuses with the wait. `tier`: see
   * lanes.ts. `onQueued` hears the waiter when it has to queue (a load keeps it, to move it up a tier).
   */
  private acquire(api: Api, lane: Lane, caller: string, need = 1, tier: Tier = 1,
    onQueued?: (waiter: Waiter) => void): Promise<Draw> {
    const queue = this.queues.get(api)!;
    const bucket = this.bucket(api);
    const share = shareOf(lane);
    const now = this.clock();
    if (queue.sizeOf(share) === 0) {
      const draw = bucket.take(now, share, need);
      if (draw) return Promise.resolve(draw);
    }
    const maxWait = this.budget.maxWaitMs;
    const estimate = bucket.waitMs(now, queue.ahead(lane, tier) + need - 1, share);
    // No point queueing a caller that cannot be served in time: answer at once with a useful Retry-After.
    if (estimate > maxWait) return Promise.reject(new BudgetExhausted(estimate / 1000));
    return new Promise<Draw>((resolve, reject) => {
      const waiter: Waiter = {
        lane,
        caller,
        need,
        tier,
        grant: (draw) => {
          clearTimeout(timer);
          resolve(draw ?? { public: 0, gateway: 0, shared: 0 });
        },
        refuse: () => {
          clearTimeout(timer);
          reject(new BudgetExhausted(1));
        },
      };
      const timer = setTimeout(() => {
        if (queue.remove(waiter)) {
          reject(new BudgetExhausted(bucket.waitMs(this.clock(), queue.ahead(waiter.lane, waiter.tier) + need - 1, share) / 1000));
        }
      }, maxWait);
      queue.push(waiter);
      onQueued?.(waiter);
      this.pump(api);
    });
  }

  /** Hands out every token each share has now, in turn, then sleeps until the next waiter's tokens if anyone waits. */
  private pump(api: Api): void {
    clearTimeout(this.timers.get(api) ?? null);
    this.timers.delete(api);
    const queue = this.queues.get(api)!;
    const bucket = this.bucket(api);
    const now = this.clock();
    let next = Number.POSITIVE_INFINITY;
    for (const share of SHARES) {
      for (let head = queue.peek(share); head; head = queue.peek(share)) {
        const need = head.need ?? 1;
        const draw = bucket.take(now, share, need);
        if (!draw) {
          next = Math.min(next, bucket.waitMs(now, need - 1, share));
          break;
        }
        queue.shift(share);
        head.grant(draw);
      }
    }
    if (next < Number.POSITIVE_INFINITY) this.timers.set(api, setTimeout(() => this.pump(api), Math.max(5, next)));
  }

  /** Learns from every upstream answer: what it says is left, and any pause it asks for. */
  private learn(api: Api, response: Response): void {
    const now = this.clock();
    const bucket = this.bucket(api);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
    const { remaining } = parseRateLimit(response.headers);
    if (response.status === 429 || (response.status === 503 && retryAfter !== null)) {
      // The upstream asked for a pause: take it whole.
      const ms = retryAfter !== null && retryAfter > 0 ? retryAfter * 1000 : DEFAULT_PAUSE_MS;
      bucket.pause(ms, now);
      if (response.status === 503) this.downUntil.set(api, now + ms);
    } else if (remaining !== null) {
      // Calls in flight and tokens reserved are both calls about to be counted against what it says is left.
      bucket.learnRemaining(remaining, this.inFlight.get(api)! - 1 + this.heldTokens(api), now,
        retryAfter !== null && retryAfter > 0 ? retryAfter * 1000 : DEFAULT_PAUSE_MS);
    }
    if (bucket.pausedUntilMs > now) {
      this.stats.pausedUntil[api] = bucket.pausedUntilMs;
      this.ctx.waitUntil(this.ctx.storage.put(`pausedUntil:${api}`, bucket.pausedUntilMs));
    }
  }

  private transport(api: Api): (request: Request) => Promise<Response> {
    return async (request) => {
      const response = await fetch(request);
      this.learn(api, response);
      return response;
    };
  }

  private async execute(call: UpstreamCall): Promise<unknown> {
    const timeoutMs = this.budget.upstreamTimeoutMs;
    if (call.api === 'geo') {
      const geo = new GeoClient({
        baseUrl: this.env.GEO_API_URL!,
        client: this.env.GEO_CLIENT || 'reelgate',
        apiKey: this.env.GEO_API_KEY!,
        fetch: this.transport('geo'),
        timeoutMs,
      });
      return geo.lookup(call.ip);
    }
    const v2 = new V2Client({
      baseUrl: this.env.API_BASE_URL,
      secret: this.env.API_SECRET,
      fetch: this.transport('v2'),
      timeoutMs,
    });
    switch (call.op) {
      case 'getPlaylist':
        return v2.getPlaylist(call.site, call.id);
      case 'getTypedPlaylist':
        return v2.getTypedPlaylist(call.site, call.id, call.type);
      case 'listMedia':
        return v2.listMedia(call.site, call.params);
      case 'getMedia':
        return v2.getMedia(call.site, call.id);
      case 'listMediaRenditions':
        return v2.listMediaRenditions(call.site, call.id, call.params);
      case 'listTextTracks':
        return v2.listTextTracks(call.site, call.id, call.params);
      case 'getPlayer':
        return v2.getPlayer(call.site, call.id);
      case 'raw': {
        const response = await v2.raw(call.method, call.path, {
          query: new URLSearchParams(call.query ?? []),
          body: call.body,
          ...(call.authorization ? { authorization: call.authorization } : {}),
        });
        const headers = [...response.headers].filter(([name]) => name !== 'set-cookie');
        return { status: response.status, headers, body: await response.text() } satisfies RawAnswer;
      }
    }
  }

  private describe(error: unknown): UpstreamFailure {
    // An API error may arrive wrapped as the cause of a transport error; the status is what matters.
    const cause = error instanceof UpstreamRequestError ? error.cause : undefined;
    if (cause instanceof V2ApiError || cause instanceof GeoApiError) return this.describe(cause);
    if (error instanceof V2ApiError || error instanceof GeoApiError) {
      return { kind: 'upstream', status: error.status, retryAfterSeconds: error.retryAfterSeconds };
    }
    if (error instanceof UpstreamRequestError) return { kind: 'transport', reason: error.kind };
    if (error instanceof InvalidIpAddressError || error instanceof InvalidArgumentError) {
      // Refused by the client before any request: an id or address no upstream call may be made for.
      return { kind: 'upstream', status: 404, retryAfterSeconds: null };
    }
    // The geo client's own error classes carry a status the same way.
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number') return { kind: 'upstream', status, retryAfterSeconds: null };
    console.error('reelgate: upstream call failed', error instanceof Error ? error.name : typeof error);
    return { kind: 'transport', reason: 'invalid_response' };
  }
}
