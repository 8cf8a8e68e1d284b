/**
 * What the budget object learns from every upstream answer: how many calls its window has left
 * (`svc-request-remaining`), and any pause it asks for (a 429, or a 503 with `Retry-After`: the upstream is down).
 * Pure: the bucket it is told about and the time are the caller's; the caller persists any pause.
 */
import { parseRateLimit, parseRetryAfter } from '../upstream/index.ts';
import { APIS, type Api } from './calls.ts';
import type { TokenBucket } from './token-bucket.ts';

/** Without a Retry-After, a 429 pauses us for a whole upstream window. */
export const DEFAULT_PAUSE_MS = 60_000;

/** Where a pause is kept in the object's storage, so it outlives an eviction (a deployed layout: do not change). */
export function pauseStorageKey(api: Api): string {
  return `pausedUntil:${api}`;
}

export class UpstreamSignals {
  /** Until when the upstream said it is down (a 503 with Retry-After), per API. */
  private readonly downUntil = new Map<Api, number>();
  /** Upstream requests under way, per API. */
  private readonly inFlight = new Map<Api, number>(APIS.map((api) => [api, 0]));

  started(api: Api): void {
    this.inFlight.set(api, this.inFlight.get(api)! + 1);
  }

  ended(api: Api): void {
    this.inFlight.set(api, this.inFlight.get(api)! - 1);
  }

  /**
   * Learns from one answer of `api`: a pause it asks for is taken whole; otherwise what it says is left bounds the
   * bucket. `held`: tokens reserved and not spent yet, calls about to be counted as well.
   */
  learn(api: Api, bucket: TokenBucket, response: Response, now: number, held: () => number): void {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
    const { remaining } = parseRateLimit(response.headers);
    if (response.status === 429 || (response.status === 503 && retryAfter !== null)) {
      // The upstream asked for a pause: take it whole.
      const ms = retryAfter !== null && retryAfter > 0 ? retryAfter * 1000 : DEFAULT_PAUSE_MS;
      bucket.pause(ms, now);
      if (response.status === 503) this.downUntil.set(api, now + ms);
    } else if (remaining !== null) {
      // Calls in flight (this one's answer is in) and tokens reserved are both calls about to be counted against
      // what it says is left.
      bucket.learnRemaining(remaining, this.inFlight.get(api)! - 1 + held(), now,
        retryAfter !== null && retryAfter > 0 ? retryAfter * 1000 : DEFAULT_PAUSE_MS);
    }
  }

  /** Whether the upstream itself is down now (not a matter of our rate). */
  isDown(api: Api, now: number): boolean {
    return (this.downUntil.get(api) ?? 0) > now;
  }

  /** Forgets when the upstream said it is down; calls under way still count. */
  forgetDowntime(): void {
    this.downUntil.clear();
  }
}
