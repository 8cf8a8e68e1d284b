/**
 * The single door to the upstream. One instance (named "global") owns the budget of every isolate: a token bucket per
 * upstream API below its limit (the v2 one with a reserved floor for visitors and for gateway keys, so neither side can
 * starve the other), lanes with fair turns between callers, a bounded wait before a 429, one shared upstream request
 * for identical concurrent reads, and the bound on how many new feed variants a playlist may load. It performs the
 * calls itself with the typed clients, so the request that carries a secret is built here from scratch and never from
 * a client's headers.
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
import { dedupeKey, type BudgetRequest, type BudgetResult, type RawAnswer, type UpstreamCall, type UpstreamFailure } from './calls.ts';
import { LaneQueue, shareOf, type Lane, type Waiter } from './lanes.ts';
import { TokenBucket, type Share } from './token-bucket.ts';
import { VariantLimiter, type VariantAdmission } from './variants.ts';
import { CallerShares, type CallerShare } from '../gateway/caller-shares.ts';

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
}

/** How long a finished read answers identical misses, and how many such answers are kept. */
const RECENT_MS = 2_000;
const RECENT_LIMIT = 500;

export class BudgetObject extends DurableObject<Env> {
  private readonly buckets = new Map<Api, TokenBucket>();
  private readonly queues = new Map<Api, LaneQueue>(APIS.map((api) => [api, new LaneQueue()]));
  private readonly timers = new Map<Api, ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Map<Api, number>(APIS.map((api) => [api, 0]));
  private readonly pending = new Map<string, Promise<BudgetResult>>();
  /**
   * Reads answered a moment ago. A miss can arrive just after an identical call finished but before the caller's KV
   * write is visible (KV is eventually consistent, up to a minute across locations); it takes this answer instead of
   * spending another upstream call. Refreshes never take it, and any write through this object empties it, so no read
   * outlives a change.
   */
  private readonly recent = new Map<string, { result: BudgetResult; until: number }>();
  /** Until when the upstream said it is down (a 503 with Retry-After), per API. */
  private readonly downUntil = new Map<Api, number>();
  /** Gateway callers' recent upstream calls, for their share figures (gateway/caller-shares.ts). */
  private readonly shares = new CallerShares();
  private readonly variants = new VariantLimiter();
  private stats: BudgetStats = BudgetObject.emptyStats();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A pause the upstream asked for outlives an eviction of this object.
    ctx.blockConcurrencyWhile(async () => {
      for (const api of APIS) {
        const until = await ctx.storage.get<number>(`pausedUntil:${api}`);
        if (until && until > Date.now()) this.bucket(api).restorePause(until);
      }
    });
  }

  private static emptyStats(): BudgetStats {
    return { granted: { v2: 0, geo: 0 }, shared: 0, refused: 0, queued: { v2: 0, geo: 0 }, pausedUntil: { v2: 0, geo: 0 } };
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
      bucket = new TokenBucket(rate, burst, Date.now(), floors);
      this.buckets.set(api, bucket);
    } else {
      bucket.configure(rate, burst, floors);
    }
    return bucket;
  }

  /** Performs one upstream call within the budget. Never throws: failures are data, so they cross RPC intact. */
  async call(request: BudgetRequest): Promise<BudgetResult> {
    const key = dedupeKey(request.call);
    if (!key) {
      this.recent.clear();
      return this.perform(request);
    }
    const now = Date.now();
    const remembered = request.acceptRecent ? this.recent.get(key) : undefined;
    if (remembered && remembered.until > now) {
      this.stats.shared += 1;
      return remembered.result;
    }
    const shared = this.pending.get(key);
    if (shared) {
      this.stats.shared += 1;
      return shared;
    }
    const result = this.perform(request);
    this.pending.set(key, result);
    void result.then((outcome) => {
      this.pending.delete(key);
      if (outcome.ok) this.remember(key, outcome);
    });
    return result;
  }

  private remember(key: string, result: BudgetResult): void {
    const now = Date.now();
    if (this.recent.size >= RECENT_LIMIT) {
      for (const [k, entry] of this.recent) if (entry.until <= now) this.recent.delete(k);
      if (this.recent.size >= RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    }
    this.recent.set(key, { result, until: now + RECENT_MS });
  }

  /** A gateway call: `call`, plus the caller's share of the budget for its `svc-request-*` headers. */
  async callWithShare(request: BudgetRequest): Promise<BudgetResult & { share: CallerShare }> {
    const result = await this.call(request);
    const now = Date.now();
    // Only calls that reached the upstream spend the caller's share.
    if (result.ok || result.failure.kind === 'upstream') this.shares.record(request.caller, now);
    return { ...result, share: this.shares.figures(request.caller, this.budget.ratePerMinute, now) };
  }

  /** A gateway caller's share without spending anything (replayed idempotent outcomes). */
  async shareOf(caller: string): Promise<CallerShare> {
    return this.shares.figures(caller, this.budget.ratePerMinute, Date.now());
  }

  /**
   * May `scope` (a playlist) load the feed variant `variant` from the upstream now? At most `feed.max_variants`
   * distinct variants per playlist per `feed.variant_window_seconds`, for all isolates together.
   */
  async admitVariant(scope: string, variant: string): Promise<VariantAdmission> {
    const feed = getConfig(this.env).feed;
    return this.variants.admit(scope, variant, feed.maxVariants, feed.variantWindowSeconds * 1000, Date.now());
  }

  /** Counters for operators and tests. */
  async snapshot(): Promise<BudgetStats> {
    const out = structuredClone(this.stats);
    for (const api of APIS) {
      out.queued[api] = this.queues.get(api)!.size;
      out.pausedUntil[api] = this.bucket(api).pausedUntilMs;
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
    this.downUntil.clear();
    this.shares.clear();
    this.variants.clear();
    this.stats = BudgetObject.emptyStats();
  }

  private async perform({ lane, caller, call }: BudgetRequest): Promise<BudgetResult> {
    const unconfigured = this.checkConfigured(call);
    if (unconfigured) return { ok: false, failure: unconfigured };
    try {
      await this.acquire(call.api, lane, caller);
    } catch (error) {
      if (error instanceof BudgetExhausted) {
        this.stats.refused += 1;
        const down = (this.downUntil.get(call.api) ?? 0) > Date.now();
        return { ok: false, failure: { kind: 'budget', retryAfterSeconds: error.retryAfterSeconds, ...(down ? { upstreamDown: true } : {}) } };
      }
      throw error;
    }
    this.stats.granted[call.api] += 1;
    this.inFlight.set(call.api, this.inFlight.get(call.api)! + 1);
    try {
      return { ok: true, value: await this.execute(call) };
    } catch (error) {
      return { ok: false, failure: this.describe(error) };
    } finally {
      this.inFlight.set(call.api, this.inFlight.get(call.api)! - 1);
    }
  }

  /** Refuses what would spend a slot for nothing: an unconfigured API, an address no lookup may be made for. */
  private checkConfigured(call: UpstreamCall): UpstreamFailure | null {
    if (call.api === 'v2') return this.env.API_BASE_URL && this.env.API_SECRET ? null : { kind: 'unconfigured' };
    if (!this.env.GEO_API_URL || !this.env.GEO_API_KEY) return { kind: 'unconfigured' };
    if (!parseIpAddress(call.ip)) return { kind: 'upstream', status: 400, retryAfterSeconds: null };
    return null;
  }

  private acquire(api: Api, lane: Lane, caller: string): Promise<void> {
    const queue = this.queues.get(api)!;
    const bucket = this.bucket(api);
    const share = shareOf(lane);
    const now = Date.now();
    if (queue.sizeOf(share) === 0 && bucket.tryTake(now, share)) return Promise.resolve();
    const maxWait = this.budget.maxWaitMs;
    const estimate = bucket.waitMs(now, queue.ahead(lane), share);
    // No point queueing a caller that cannot be served in time: answer at once with a useful Retry-After.
    if (estimate > maxWait) return Promise.reject(new BudgetExhausted(estimate / 1000));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        lane,
        caller,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
        refuse: () => {
          clearTimeout(timer);
          reject(new BudgetExhausted(1));
        },
      };
      const timer = setTimeout(() => {
        if (queue.remove(waiter)) reject(new BudgetExhausted(bucket.waitMs(Date.now(), queue.sizeOf(share), share) / 1000));
      }, maxWait);
      queue.push(waiter);
      this.pump(api);
    });
  }

  /** Hands out every token each share has now, then sleeps until the next one if anyone still waits. */
  private pump(api: Api): void {
    clearTimeout(this.timers.get(api) ?? null);
    this.timers.delete(api);
    const queue = this.queues.get(api)!;
    const bucket = this.bucket(api);
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const share of SHARES) {
      while (queue.sizeOf(share) > 0 && bucket.tryTake(now, share)) queue.shift(share)!.grant();
      if (queue.sizeOf(share) > 0) next = Math.min(next, bucket.waitMs(now, 0, share));
    }
    if (next < Number.POSITIVE_INFINITY) this.timers.set(api, setTimeout(() => this.pump(api), Math.max(5, next)));
  }

  /** Learns from every upstream answer: what it says is left, and any pause it asks for. */
  private learn(api: Api, response: Response): void {
    const now = Date.now();
    const bucket = this.bucket(api);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
    const { remaining } = parseRateLimit(response.headers);
    if (response.status === 429 || (response.status === 503 && retryAfter !== null)) {
      // The upstream asked for a pause: take it whole.
      const ms = retryAfter !== null && retryAfter > 0 ? retryAfter * 1000 : DEFAULT_PAUSE_MS;
      bucket.pause(ms, now);
      if (response.status === 503) this.downUntil.set(api, now + ms);
    } else if (remaining !== null) {
      bucket.learnRemaining(remaining, this.inFlight.get(api)! - 1, now,
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
