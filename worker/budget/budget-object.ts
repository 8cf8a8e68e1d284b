/**
 * The single door to the upstream. One instance (named "global") owns the budget of every isolate and performs the
 * calls itself. This class is the shell: it keeps the RPC surface and the storage, reads the config, and wires the
 * modules that do the work:
 *
 * - admission.ts: a token bucket per upstream API and lanes with fair turns, a bounded wait before a 429;
 * - reservations.ts: loads of several calls reserved whole (`beginLoad` / `endLoad`), expiring if abandoned;
 * - coalescing.ts: one upstream request for identical concurrent reads, and a moment's memory of finished ones;
 * - key-shares.ts and caller-shares.ts: each gateway key's account of the gateway's reserve;
 * - variants.ts: how many new feed variants a playlist may load, and (the same count) how many new addresses of one
 *   IPv6 /64 the Geo API may be asked about;
 * - execute.ts: the typed clients' call and its failure data; upstream-signals.ts: what each answer teaches;
 * - stats.ts: the counters `snapshot` returns.
 *
 * White-box tests reach `clock`, `env`, `bucket(api)` and `buckets` through runInDurableObject; keep those names.
 */
import { DurableObject } from 'cloudflare:workers';
import type { BudgetConfig } from '../config.ts';
import { objectConfig } from '../http/request-config.ts';
import type { Env } from '../env.ts';
import { Admission, BudgetExhausted } from './admission.ts';
import {
  APIS, dedupeKey, type Api, type BudgetRequest, type BudgetResult, type LoadAdmission, type LoadRequest,
  type UpstreamFailure,
} from './calls.ts';
import type { CallerShare } from './caller-shares.ts';
import { Coalescer, PARTIAL_MS } from './coalescing.ts';
import { describeFailure, execute, isConfigured, refuseUnconfigured } from './execute.ts';
import { KeyShares } from './key-shares.ts';
import { shareOf as sideOf } from './lanes.ts';
import { Reservations, type Load } from './reservations.ts';
import { emptyStats, ServedLedger, type BudgetStats, type Performed } from './stats.ts';
import type { TokenBucket } from './token-bucket.ts';
import { pauseStorageKey, UpstreamSignals } from './upstream-signals.ts';
import { VariantLimiter, type VariantAdmission } from './variants.ts';
import { count, flushSoon, useMetricsConfig } from '../metrics/index.ts';
import { parseRateLimit } from '../upstream/index.ts';

export type { BudgetStats } from './stats.ts';

export class BudgetObject extends DurableObject<Env> {
  /** The object's time. Tests replace it (runInDurableObject) to step through expiries without waiting. */
  private clock: () => number = () => Date.now();
  private stats: BudgetStats = emptyStats();
  private readonly admission = new Admission(() => this.clock(), () => this.budget);
  private readonly coalescer = new Coalescer<Performed>(() => this.clock());
  private readonly served = new ServedLedger();
  private readonly signals = new UpstreamSignals();
  private readonly reservations = new Reservations({
    now: () => this.clock(),
    config: () => this.budget,
    admission: this.admission,
    stats: () => this.stats,
    refusal: (api, error) => this.exhausted(api, error),
    served: (serial) => this.markServed(serial),
    keep: (key, performed) => this.coalescer.remember(key, performed, PARTIAL_MS),
  });
  private readonly shares = new KeyShares({
    now: () => this.clock(),
    config: () => this.budget,
    bucket: () => this.bucket('v2'),
    visitorsWaiting: () => this.admission.queued('v2', 'public'),
  });
  private readonly variants = new VariantLimiter();
  /** Per IPv6 /64 (its salted hash): the addresses (their hashes) looked up in the window (admitGeoLookup). */
  private readonly geoNetworks = new VariantLimiter();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A pause the upstream asked for outlives an eviction of this object.
    void ctx.blockConcurrencyWhile(async () => {
      for (const api of APIS) {
        const until = await ctx.storage.get<number>(pauseStorageKey(api));
        if (until && until > this.clock()) this.bucket(api).restorePause(until);
      }
    });
  }

  /** The only config the object reads besides `feed` (admitVariant): read on every use, so a new config applies at once. */
  private get budget(): BudgetConfig {
    return objectConfig(this.env).budget;
  }

  /** Tests reach the buckets through these (see the header). */
  private get buckets(): Map<Api, TokenBucket> {
    return this.admission.buckets;
  }

  private bucket(api: Api): TokenBucket {
    return this.admission.bucket(api);
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
    this.reservations.sweep(now);
    const load = this.reservations.get(request.load);
    const key = dedupeKey(request.call);
    if (!key) {
      // A write: no read remembered from before it may answer after it.
      this.coalescer.forgetRecent();
      const done = await this.perform(request, load, viaShare);
      this.received(done, load);
      return done.result;
    }
    const own = load?.results.get(key);
    if (own) {
      this.stats.shared += 1;
      return own.result;
    }
    const remembered = request.acceptRecent ? this.coalescer.recentAnswer(key, now) : undefined;
    if (remembered) {
      this.stats.shared += 1;
      this.received(remembered, load, key);
      return remembered.result;
    }
    const { answer, joined } = this.coalescer.share(key, () => this.perform(request, load, viaShare), (done) => done.result.ok);
    if (joined) this.stats.shared += 1;
    const done = await answer;
    this.received(done, load, key);
    return done.result;
  }

  /** A caller has an upstream call's outcome: served now, or (inside a load) once the load finishes. */
  private received(done: Performed, load: Load | undefined, key?: string): void {
    if (load) this.reservations.record(load, done, key);
    else this.markServed(done.serial);
  }

  private markServed(serial: number | null): void {
    if (this.served.serve(serial)) this.stats.served += 1;
  }

  /**
   * Reserves the calls a load needs: admitted whole, queued whole for at most `max_wait_ms`, or refused with the wait;
   * a load of a key already admitted or queued is joined instead (reservations.ts).
   */
  async beginLoad(request: LoadRequest): Promise<LoadAdmission> {
    const now = this.clock();
    this.reservations.sweep(now);
    if (!isConfigured(this.env, request.api)) return { ok: false, failure: { kind: 'unconfigured' } };
    const admission = await this.reservations.begin(request, now);
    this.flushMetrics();
    return admission;
  }

  /**
   * One member of a load is done. `finished`: it made its answer (or learned there is none). Otherwise its reads are
   * kept for the next attempt. When the last member is done, the unspent tokens go back.
   */
  async endLoad(id: string, finished: boolean): Promise<void> {
    this.reservations.sweep(this.clock());
    this.reservations.end(id, finished);
  }

  /** Tokens reserved (loads, gateway keys' accounts) and not spent yet: calls that may still reach the upstream. */
  private heldTokens(api: Api): number {
    const held = this.reservations.held(api);
    return api === 'v2' ? held + this.shares.held() : held;
  }

  /**
   * A gateway key's call: it spends a token held for the key (never another key's, never the visitors'), or is refused
   * at once with the time its next token is due; it is never queued. Returns the key's share for its headers.
   */
  async callWithShare(request: BudgetRequest): Promise<BudgetResult & { share: CallerShare }> {
    const now = this.clock();
    // The welcome seat is filled in its turn before a new key takes it over.
    this.shares.fill(now);
    this.shares.join(request.caller, now);
    this.shares.fill(now);
    const result = await this.run(request, true);
    const later = this.clock();
    this.shares.fill(later);
    const waitedMs = this.shares.waitedMs(request);
    return { ...result, share: { ...this.shares.figures(request.caller, later), waitedMs } };
  }

  /** A gateway key's share without spending anything (refusals, replayed idempotent outcomes). */
  async shareOf(caller: string): Promise<CallerShare> {
    const now = this.clock();
    this.shares.fill(now);
    return this.shares.figures(caller, now);
  }

  /**
   * May `scope` (a playlist) load the feed variant `variant` from the upstream now? At most `feed.max_variants`
   * distinct variants per playlist per `feed.variant_window_seconds`, for all isolates together.
   */
  async admitVariant(scope: string, variant: string): Promise<VariantAdmission> {
    const feed = objectConfig(this.env).feed;
    return this.variants.admit(scope, variant, feed.maxVariants, feed.variantWindowSeconds * 1000, this.clock());
  }

  /**
   * May the IPv6 /64 `network` have `address` looked up in the Geo API now (both salted hashes)? At most
   * `budget.geo_lookups_per_network` distinct addresses per /64 per `budget.geo_network_window_seconds`, for all
   * isolates together, so rotating addresses inside one /64 cannot drain the geo bucket. An address admitted in the
   * window is admitted again (its refreshes, other isolates' misses of it). Admission is not a slot: the lookup still
   * takes its token from the geo bucket.
   */
  async admitGeoLookup(network: string, address: string): Promise<VariantAdmission> {
    const { geoLookupsPerNetwork, geoNetworkWindowSeconds } = this.budget;
    return this.geoNetworks.admit(network, address, geoLookupsPerNetwork, geoNetworkWindowSeconds * 1000, this.clock());
  }

  /** Counters for operators and tests. */
  async snapshot(): Promise<BudgetStats> {
    this.reservations.sweep(this.clock());
    const out = structuredClone(this.stats);
    for (const api of APIS) {
      out.queued[api] = this.admission.queued(api);
      out.pausedUntil[api] = this.bucket(api).pausedUntilMs;
      out.held[api] = this.heldTokens(api);
    }
    return out;
  }

  /** Forgets every counter, waiter and pause (tests; an operator after rotating the secret). */
  async reset(): Promise<void> {
    for (const api of APIS) {
      this.admission.dismiss(api);
      await this.ctx.storage.delete(pauseStorageKey(api));
    }
    this.admission.clearBuckets();
    this.coalescer.clear();
    this.reservations.clear();
    this.served.clear();
    this.signals.forgetDowntime();
    this.shares.clear();
    this.variants.clear();
    this.geoNetworks.clear();
    this.stats = emptyStats();
  }

  private async perform(request: BudgetRequest, load?: Load, viaShare = false): Promise<Performed> {
    const { lane, caller, call, background } = request;
    const unconfigured = refuseUnconfigured(this.env, call);
    if (unconfigured) return { result: { ok: false, failure: unconfigured }, serial: null };
    try {
      // A load's call spends its reservation; beyond it, it goes first in line (what the load spent is wasted unless
      // it finishes). Anything else queues as a caller waiting (or, for a background refresh, behind them).
      // A gateway key's call spends its own account (key-shares.ts).
      if (viaShare && call.api === 'v2') await this.shares.spend(request);
      else if (!this.reservations.spend(call.api, load)) {
        await this.admission.acquire(call.api, lane, caller, 1, load ? 0 : background ? 2 : 1,
          () => count('budget_waits', { side: sideOf(lane) }));
      }
    } catch (error) {
      if (error instanceof BudgetExhausted) {
        this.stats.refused += 1;
        count('budget_refusals', { side: sideOf(lane) });
        this.flushMetrics();
        return { result: { ok: false, failure: this.exhausted(call.api, error) }, serial: null };
      }
      throw error;
    }
    const serial = this.served.open();
    this.stats.granted[call.api] += 1;
    count('upstream_calls', { side: sideOf(lane), api: call.api });
    this.signals.started(call.api);
    try {
      const value = await execute(this.env, call, this.budget.upstreamTimeoutMs, (api) => this.transport(api));
      return { result: { ok: true, value }, serial };
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.kind === 'transport') count('upstream_errors', { api: call.api, kind: 'transport' });
      else if (failure.kind === 'upstream' && failure.status === 429) count('upstream_throttled', { api: call.api });
      else if (failure.kind === 'upstream' && failure.status >= 500) count('upstream_errors', { api: call.api, kind: 'status' });
      return { result: { ok: false, failure }, serial };
    } finally {
      this.signals.ended(call.api);
      this.flushMetrics();
    }
  }

  /** This object's counts go to the metrics store like an isolate's: in the background, every few seconds. */
  private flushMetrics(): void {
    useMetricsConfig(objectConfig(this.env).metrics);
    flushSoon(this.env, (promise) => this.ctx.waitUntil(promise));
  }

  private exhausted(api: Api, error: BudgetExhausted): UpstreamFailure {
    const down = this.signals.isDown(api, this.clock());
    return { kind: 'budget', retryAfterSeconds: error.retryAfterSeconds, ...(down ? { upstreamDown: true } : {}) };
  }

  /** Every upstream answer passes here: the bucket learns from it, and a pause it asks for is kept in storage. */
  private transport(api: Api): (request: Request) => Promise<Response> {
    return async (request) => {
      const response = await fetch(request);
      const now = this.clock();
      const bucket = this.bucket(api);
      this.signals.learn(api, bucket, response, now, () => this.heldTokens(api));
      const { limit } = parseRateLimit(response.headers);
      if (limit !== null) this.admission.adoptLimit(api, limit);
      if (bucket.pausedUntilMs > now) {
        this.stats.pausedUntil[api] = bucket.pausedUntilMs;
        this.ctx.waitUntil(this.ctx.storage.put(pauseStorageKey(api), bucket.pausedUntilMs));
      }
      return response;
    };
  }
}
