/**
 * The worker's bound on its Delivery API calls: a token bucket and a concurrency limit per isolate. The Delivery API
 * is a CDN outside the Management API's 60 a minute (worker/budget/ never sees these calls), so the bound is the
 * worker's own politeness (`delivery` in REELGATE_CONFIG), not a contract: a call waits for a slot up to
 * `maxWaitMs`, and one that cannot start by then is refused with 503 `delivery_busy` instead of queueing without end.
 */
import type { DeliveryConfig } from '../config.ts';
import { ApiError } from '../http/errors.ts';

export const deliveryBusy = (retryAfterSeconds: number) => new ApiError(503, 'delivery_busy',
  'The worker is making as many Delivery API calls as it allows itself; retry shortly.', retryAfterSeconds);

export class DeliveryMeter {
  private tokens: number;
  private refilledAt: number;
  private running = 0;

  constructor(private config: DeliveryConfig, private readonly now: () => number = Date.now) {
    this.tokens = config.burst;
    this.refilledAt = now();
  }

  /** A configuration change applies from the next call (the bucket keeps what it holds, capped by the new burst). */
  configure(config: DeliveryConfig): void {
    if (config === this.config) return;
    this.config = config;
    this.tokens = Math.min(this.tokens, config.burst);
  }

  /** Runs `call` when the bucket and the concurrency limit allow it, or refuses it after `maxWaitMs`. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await call();
    } finally {
      this.running--;
    }
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.refilledAt) / 1000;
    this.tokens = Math.min(this.config.burst, this.tokens + elapsed * this.config.ratePerSecond);
    this.refilledAt = now;
  }

  /**
   * Waits for a token and a free slot. Each waiter looks again on a timer of its own: requests share this isolate's
   * counts, never each other's timers or promises (workerd refuses I/O across requests, and a request woken by
   * another's could be left waiting when that one is cancelled).
   */
  private async acquire(): Promise<void> {
    const deadline = this.now() + this.config.maxWaitMs;
    for (;;) {
      this.refill();
      if (this.tokens >= 1 && this.running < this.config.concurrency) {
        this.tokens -= 1;
        this.running++;
        return;
      }
      const left = deadline - this.now();
      if (left <= 0) throw deliveryBusy(Math.max(1, Math.ceil(1 / this.config.ratePerSecond)));
      // The next token when that is what is missing; a short look again when a slot is (a call ends any moment).
      const due = this.tokens < 1 ? Math.ceil(((1 - this.tokens) / this.config.ratePerSecond) * 1000) : RECHECK_MS;
      await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, Math.min(left, due))));
    }
  }
}

/** How soon a waiter for a concurrency slot looks again. */
const RECHECK_MS = 10;

/** The isolate's meter: every Delivery API call of this isolate passes through it. */
let isolateMeter: DeliveryMeter | null = null;

export function deliveryMeter(config: DeliveryConfig): DeliveryMeter {
  if (!isolateMeter) isolateMeter = new DeliveryMeter(config);
  else isolateMeter.configure(config);
  return isolateMeter;
}
