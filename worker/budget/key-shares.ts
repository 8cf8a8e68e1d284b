/**
 * Gateway keys' side of the v2 budget at work: fills the keys' accounts (caller-shares.ts) as the gateway's reserve
 * refills, spends a key's token for its call (or a shared one nobody waits for), waits at most `max_wait_ms` for the
 * next one, and says what the key's headers promise. Its only timers are the next hand-out and a call's wait.
 */
import type { BudgetConfig } from '../config.ts';
import { BudgetExhausted } from './admission.ts';
import type { BudgetRequest } from './calls.ts';
import { CallerShares, type CallerShare, type ShareTerms } from './caller-shares.ts';
import type { TokenBucket } from './token-bucket.ts';

export interface KeyShareDeps {
  now: () => number;
  config: () => BudgetConfig;
  /** The v2 bucket, as configured now. */
  bucket: () => TokenBucket;
  /** Visitors queued for the v2 bucket: a shared token they wait for is not a key's to take. */
  visitorsWaiting: () => number;
}

export class KeyShares {
  /** Gateway keys' accounts: tokens held for each active key. */
  private readonly accounts = new CallerShares();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** How long a gateway call waited for its key's next token (for its `Server-Timing`), by request. */
  private readonly waits = new WeakMap<BudgetRequest, number>();

  constructor(private readonly deps: KeyShareDeps) {}

  terms(): ShareTerms {
    const b = this.deps.config();
    return {
      guaranteedPerMinute: b.ratePerMinute * b.gatewayFloor,
      reserve: b.burst * b.gatewayFloor,
      pausedUntil: this.deps.bucket().pausedUntilMs,
    };
  }

  /** A call of `caller`: it is active (a key new to the turns takes over the welcome seat). */
  join(caller: string, now: number): void {
    this.accounts.join(caller, now, this.deps.bucket());
  }

  /**
   * Hands the gateway's whole tokens to the keys' accounts, and while some account wants more, comes back when the
   * next one is due (so the gateway's reserve never overflows into the shared pool while a key is owed a token).
   */
  fill(now: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const bucket = this.deps.bucket();
    if (!this.accounts.fill(bucket, now, this.terms())) return;
    const wait = Math.max(50, bucket.waitMs(now, 0, 'gateway'));
    this.timer = setTimeout(() => this.fill(this.deps.now()), wait);
  }

  /**
   * Spends a token for the key's call. When its account is empty the call may wait, at most `max_wait_ms`, for the
   * key's next token or a shared one (the wait goes into its `Server-Timing`); when neither can come in that time it is
   * refused at once with when the key's own token is due. A client pacing on its headers never waits.
   */
  async spend(request: BudgetRequest): Promise<void> {
    const { caller } = request;
    const started = this.deps.now();
    if (this.take(caller, started)) return;
    const dueMs = this.accounts.retryAfterSeconds(caller, started, this.terms()) * 1000;
    const maxWait = this.deps.config().maxWaitMs;
    const soonest = Math.min(dueMs, this.deps.bucket().waitMs(started, 0, 'gateway'));
    if (soonest > maxWait) throw new BudgetExhausted(dueMs / 1000);
    const stepMs = Math.max(50, soonest);
    for (let waited = 0; waited < maxWait; waited += stepMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(stepMs, maxWait - waited)));
      const now = this.deps.now();
      if (this.take(caller, now)) {
        this.waits.set(request, Math.max(0, now - started));
        return;
      }
    }
    throw new BudgetExhausted(this.accounts.retryAfterSeconds(caller, this.deps.now(), this.terms()));
  }

  /** How long `request` waited for its token (0 when it found one at once). */
  waitedMs(request: BudgetRequest): number {
    return this.waits.get(request) ?? 0;
  }

  /** The figures for `caller`'s headers. */
  figures(caller: string, now: number): CallerShare {
    return this.accounts.figures(caller, now, this.terms());
  }

  /** Tokens held for all keys (calls that may still reach the upstream). */
  held(): number {
    return this.accounts.held();
  }

  clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.accounts.clear();
  }

  /** A token now: the key's own, or one of the shared pool that is there now and that no visitor waits for. */
  private take(caller: string, now: number): boolean {
    this.fill(now);
    const bucket = this.deps.bucket();
    // The upstream asked for a pause: nothing is spent until it is over, held tokens included.
    if (bucket.pausedUntilMs > now) throw new BudgetExhausted((bucket.pausedUntilMs - now) / 1000);
    if (this.accounts.spend(caller)) return true;
    return this.deps.visitorsWaiting() === 0 && bucket.take(now, 'gateway', 1, 'shared') !== null;
  }
}
