/**
 * Admission: who may spend an upstream call now. One token bucket per upstream API (token-bucket.ts; the v2 one with
 * reserved floors for visitors and gateway keys) and one lane queue per API (lanes.ts): a caller takes its tokens at
 * once, or waits its turn for at most `max_wait_ms`, or is refused at once with the wait when it cannot be served in
 * time. No I/O; its only timers hand tokens to waiters as they refill.
 */
import type { BudgetConfig } from '../config.ts';
import { DOCUMENTED_RATE_LIMIT } from '../contract/v2-types.ts';
import { APIS, type Api } from './calls.ts';
import { LaneQueue, shareOf, type Lane, type Tier, type Waiter } from './lanes.ts';
import { TokenBucket, type Draw, type Share } from './token-bucket.ts';

const SHARES: readonly Share[] = ['public', 'gateway'];

/** No slot within the wait bound, or the upstream asked for a pause: try again in `retryAfterSeconds`. */
export class BudgetExhausted extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('budget exhausted');
  }
}

export class Admission {
  /** Created on first use, reconfigured on every use (the config may change under a running object). */
  readonly buckets = new Map<Api, TokenBucket>();
  private readonly queues = new Map<Api, LaneQueue>(APIS.map((api) => [api, new LaneQueue()]));
  private readonly timers = new Map<Api, ReturnType<typeof setTimeout>>();

  /** The limit per minute each API last stated (its rate-limit header), when it did. */
  private readonly statedLimits = new Map<Api, number>();

  constructor(private readonly now: () => number, private readonly config: () => BudgetConfig) {}

  /**
   * Adopts the limit an answer states: the configured rate is a share of the documented 60 a minute, and that share is
   * kept of a lower limit (an account on a smaller plan, a limit lowered for everyone). Never more than configured.
   */
  adoptLimit(api: Api, limit: number): void {
    if (limit >= 1) this.statedLimits.set(api, limit);
  }

  /** The rate in force: the configured one, scaled down to a lower stated limit. */
  private rateOf(api: Api, configured: number): number {
    const stated = this.statedLimits.get(api);
    return stated === undefined ? configured : Math.min(configured, (configured * stated) / DOCUMENTED_RATE_LIMIT);
  }

  bucket(api: Api): TokenBucket {
    const b = this.config();
    // Only v2 calls come from gateway keys; every geo lookup is a visitor's, so the geo bucket has no reserves.
    const [configured, burst, floors] = api === 'v2'
      ? [b.ratePerMinute, b.burst, { public: b.publicFloor, gateway: b.gatewayFloor }]
      : [b.geoRatePerMinute, b.geoBurst, { public: 0, gateway: 0 }];
    const rate = this.rateOf(api, configured);
    let bucket = this.buckets.get(api);
    if (!bucket) {
      bucket = new TokenBucket(rate, burst, this.now(), floors);
      this.buckets.set(api, bucket);
    } else {
      bucket.configure(rate, burst, floors);
    }
    return bucket;
  }

  /** Waiters queued for `api`, or only those drawing on `share`. */
  queued(api: Api, share?: Share): number {
    const queue = this.queues.get(api)!;
    return share ? queue.sizeOf(share) : queue.size;
  }

  /**
   * Takes `need` tokens at once for `lane`, now or in turn within `max_wait_ms`, or refuses with the wait. `tier`: see
   * lanes.ts. `onQueued` hears the waiter when it has to queue (a load keeps it, to move it up a tier).
   */
  acquire(api: Api, lane: Lane, caller: string, need = 1, tier: Tier = 1,
    onQueued?: (waiter: Waiter) => void): Promise<Draw> {
    const queue = this.queues.get(api)!;
    const bucket = this.bucket(api);
    const share = shareOf(lane);
    const now = this.now();
    if (queue.sizeOf(share) === 0) {
      const draw = bucket.take(now, share, need);
      if (draw) return Promise.resolve(draw);
    }
    const maxWait = this.config().maxWaitMs;
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
          reject(new BudgetExhausted(bucket.waitMs(this.now(), queue.ahead(waiter.lane, waiter.tier) + need - 1, share) / 1000));
        }
      }, maxWait);
      queue.push(waiter);
      onQueued?.(waiter);
      this.pump(api);
    });
  }

  /** Hands out every token each share has now, in turn, then sleeps until the next waiter's tokens if anyone waits. */
  pump(api: Api): void {
    clearTimeout(this.timers.get(api) ?? null);
    this.timers.delete(api);
    const queue = this.queues.get(api)!;
    const bucket = this.bucket(api);
    const now = this.now();
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

  /** A background waiter that a waiting caller now depends on moves up to that caller's tier. */
  promote(api: Api, waiter: Waiter): void {
    if (waiter.tier !== 2) return;
    const queue = this.queues.get(api)!;
    if (!queue.remove(waiter)) return;
    waiter.tier = 1;
    queue.push(waiter);
    this.pump(api);
  }

  /** Gives back tokens taken and not spent, and lets waiters have them. */
  refund(api: Api, draw: Draw): void {
    this.bucket(api).refund(draw, this.now());
    this.pump(api);
  }

  /** Stops handing out for `api` and sends every waiter away without a slot. */
  dismiss(api: Api): void {
    clearTimeout(this.timers.get(api) ?? null);
    this.timers.delete(api);
    for (const waiter of this.queues.get(api)!.clear()) waiter.refuse();
  }

  /** Forgets every bucket (spent tokens, pauses); they are made afresh from the config. */
  clearBuckets(): void {
    this.buckets.clear();
  }
}
