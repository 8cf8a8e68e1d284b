/**
 * A token bucket that also listens to the upstream: it never spends what the upstream reports as gone
 * (`svc-request-remaining`) and stops entirely while the upstream has asked for a pause (a 429's `Retry-After`).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private pausedUntil = 0;
  /**
   * What the upstream last reported as left in its window, less what we spent since, until that window has moved
   * on. Refilling at our own rate must not spend past it: our rate may exceed the upstream's real one (an API whose
   * limit we do not know, a limit lowered for the account, other holders of the secret).
   */
  private allowance: number | null = null;
  private allowanceUntil = 0;

  constructor(
    private ratePerMinute: number,
    private capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Applies a new configuration without losing what has been spent. */
  configure(ratePerMinute: number, capacity: number): void {
    this.ratePerMinute = ratePerMinute;
    this.capacity = capacity;
    this.tokens = Math.min(this.tokens, capacity);
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.last);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed * this.ratePerMinute) / 60_000);
    this.last = now;
  }

  tryTake(now: number): boolean {
    this.refill(now);
    if (now < this.pausedUntil || this.tokens < 1 || this.allowanceLeft(now) < 1) return false;
    this.tokens -= 1;
    if (this.allowance !== null) this.allowance -= 1;
    return true;
  }

  private allowanceLeft(now: number): number {
    if (this.allowance !== null && now >= this.allowanceUntil) this.allowance = null;
    return this.allowance ?? Number.POSITIVE_INFINITY;
  }

  /** Milliseconds until `position + 1` tokens are available (0 when one is available now). */
  waitMs(now: number, position = 0): number {
    this.refill(now);
    const pause = Math.max(0, this.pausedUntil - now);
    const missing = position + 1 - this.tokens;
    const refill = missing <= 0 ? 0 : (missing * 60_000) / this.ratePerMinute;
    // With the upstream's allowance spent, nothing moves before its window has passed, whatever our tokens say.
    const allowance = this.allowanceLeft(now) < position + 1 ? this.allowanceUntil - now : 0;
    return Math.ceil(Math.max(pause + refill, allowance));
  }

  /** The upstream says only `remaining` calls are left in its window (others may be spending them too). */
  learnRemaining(remaining: number, inFlight: number, now: number, windowMs = 60_000): void {
    this.refill(now);
    const left = remaining - inFlight;
    if (left <= 0) {
      // Its window is spent: wait a whole window rather than probe into a 429.
      this.tokens = 0;
      this.pause(windowMs, now);
    } else {
      this.tokens = Math.min(this.tokens, left);
      this.allowance = left;
      this.allowanceUntil = now + windowMs;
    }
  }

  pause(ms: number, now: number): void {
    this.refill(now);
    this.tokens = 0;
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
  }

  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  restorePause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    if (until > this.last) this.tokens = 0;
  }
}
