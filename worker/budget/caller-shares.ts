/**
 * Each gateway key's share of the upstream budget, held for it, so that the `svc-request-limit` /
 * `svc-request-remaining` headers it receives are a promise the budget keeps rather than an estimate.
 *
 * Every key active in the last minute has an account: tokens taken from the gateway's reserve (`budget.gateway_floor`
 * of the bucket, which visitors never spend) and held for that key alone. Tokens are handed out one at a time, round
 * the keys whose account is not full (the key that just got one goes to the back), as soon as the reserve has a whole
 * one. A gateway call spends a token of its own key's account; when that is empty it may take one from the shared pool
 * if one is there right now (first come first served, as visitors do; nobody is promised those); otherwise it waits
 * for the key's next token if that is due within `max_wait_ms` (saying so in `Server-Timing`), or is refused at once
 * with when it is due. A key that paces on its headers never waits. So:
 *
 * - `remaining` is the whole tokens the key holds: its next `remaining` calls find their token at once (unless the
 *   platform itself asks us to pause, see worker/docs/gateway.md, "Lanes and your share of the budget").
 * - `reset` (seconds) bounds when the key holds one more call (0 when its account is full): the gateway's reserve
 *   refills at `gateway_floor × rate` whatever the visitors do, and hand-outs go round the keys in turn, so the bound
 *   holds under any flood of visitors and however other keys behave (a key that arrives later goes behind it).
 * - `limit` is what the key can count on per minute: the gateway's reserved rate split between the active keys.
 *
 * A key that was not active has no account and so no promise yet. One seat in the turns is kept for it: a welcome
 * account that holds one call like any other, which the next key to arrive takes over, so a key's first call finds a
 * token at once unless another key arrived since the seat was last filled.
 *
 * The global limit is the bucket's: held tokens were taken from it, and an account idle for a minute gives what it
 * holds back to the pools it came from (never above their caps).
 */
import { heldBy, spendOne, type Draw, type TokenBucket } from './token-bucket.ts';

export interface CallerShare {
  /** Calls a minute the key can count on. */
  limit: number;
  /** Calls the key may make now: tokens held for it. */
  remaining: number;
  /** Seconds until it holds one more call, at the latest (0 when its account is full). */
  reset: number;
  /** Milliseconds this call waited for the key's next token (its account was empty and the token was due soon). */
  waitedMs?: number;
}

/** What a key's share is made of, in the budget's terms. */
export interface ShareTerms {
  /** The gateway's reserved rate: `gateway_floor × rate_per_minute`. */
  guaranteedPerMinute: number;
  /** The gateway's reserve: `gateway_floor × burst`. */
  reserve: number;
  /** Until when the upstream asked us to pause (ms on the object's clock); 0 when it did not. */
  pausedUntil: number;
}

/** A key that made no call for this long gives its tokens back and stops counting as active. */
export const SHARE_WINDOW_MS = 60_000;
/** The seat kept for the next key to arrive; not a key id (those are `key_…`). */
const WELCOME = '';
const MAX_CALLERS = 1000;
const EPSILON = 1e-9;

interface Account {
  draw: Draw;
  lastCall: number;
}

export class CallerShares {
  /** In hand-out order: the first account that is not full gets the next token. */
  private readonly accounts = new Map<string, Account>();

  constructor() {
    this.clear();
  }

  /** Keys active now (the welcome seat is none). */
  private get active(): number {
    return this.accounts.size - 1;
  }

  /**
   * A call of `caller`: it is active. A key without an account gets one at the back of the turns, with what the
   * welcome seat holds (the seat stays where it is, empty, and is filled again in its turn).
   */
  join(caller: string, now: number, bucket: TokenBucket): void {
    const account = this.accounts.get(caller);
    if (account) {
      account.lastCall = now;
      return;
    }
    const welcome = this.accounts.get(WELCOME)!;
    this.accounts.set(caller, { draw: welcome.draw, lastCall: now });
    welcome.draw = { public: 0, gateway: 0, shared: 0 };
    while (this.accounts.size > MAX_CALLERS) {
      // The longest idle goes first; what it held goes back.
      let oldest: [string, Account] | undefined;
      for (const entry of this.accounts) {
        if (entry[0] !== WELCOME && (!oldest || entry[1].lastCall < oldest[1].lastCall)) oldest = entry;
      }
      this.drop(oldest![0], bucket, now);
    }
  }

  /**
   * How many tokens one account may hold: its part of the gateway's reserve (the welcome seat counting as one), and
   * always one whole call. The seat itself holds one.
   */
  cap(terms: ShareTerms, active = this.active): number {
    return Math.max(1, Math.floor(terms.reserve / (Math.max(0, active) + 1) + EPSILON));
  }

  /**
   * Hands every whole token the gateway's side has now to the accounts that are not full, one each in turn. Returns
   * true when some account still wants tokens (the caller schedules the next hand-out).
   */
  fill(bucket: TokenBucket, now: number, terms: ShareTerms): boolean {
    this.expire(bucket, now);
    const cap = this.cap(terms);
    for (;;) {
      const wanting = [...this.accounts]
        .filter(([name, account]) => heldBy(account.draw) < (name === WELCOME ? 1 : cap) - EPSILON);
      if (wanting.length === 0) return false;
      for (const [caller, account] of wanting) {
        // From the gateway's reserve only: the shared pool is first come first served, never held for anyone.
        const draw = bucket.take(now, 'gateway', 1, 'own');
        if (!draw) return true;
        account.draw.public += draw.public;
        account.draw.gateway += draw.gateway;
        account.draw.shared += draw.shared;
        this.accounts.delete(caller);
        this.accounts.set(caller, account);
      }
    }
  }

  /** Spends one token of `caller`'s account, if it holds one. */
  spend(caller: string): boolean {
    return spendOne(this.accounts.get(caller)?.draw ?? null, ['shared', 'gateway', 'public']);
  }

  /** Tokens held for all keys (calls that may still reach the upstream). */
  held(): number {
    let total = 0;
    for (const account of this.accounts.values()) total += heldBy(account.draw);
    return total;
  }

  /**
   * Milliseconds until `caller`'s account holds one more token, at the latest. Hand-outs go round the accounts in
   * turn and one that gets a token goes to the back, so before `caller`'s next token at most one goes to each account
   * ahead of it now (full or not: it may spend meanwhile); accounts that arrive later queue behind it. The gateway's
   * reserve alone brings a token every `60 000 / guaranteedPerMinute` ms, whatever the visitors do.
   */
  private nextTokenMs(caller: string, now: number, terms: ShareTerms): number {
    let ahead = 0;
    for (const name of this.accounts.keys()) {
      if (name === caller) break;
      ahead += 1;
    }
    const perToken = terms.guaranteedPerMinute > 0 ? 60_000 / terms.guaranteedPerMinute : Number.POSITIVE_INFINITY;
    return Math.max(0, terms.pausedUntil - now) + (ahead + 1) * perToken;
  }

  /** Seconds until `caller` holds a token again (a refusal's Retry-After); at least 1. */
  retryAfterSeconds(caller: string, now: number, terms: ShareTerms): number {
    return Math.max(1, Math.ceil(this.nextTokenMs(caller, now, terms) / 1000));
  }

  /** The figures for `caller`'s headers. */
  figures(caller: string, now: number, terms: ShareTerms): CallerShare {
    const active = Math.max(1, this.active + (this.accounts.has(caller) ? 0 : 1));
    const account = this.accounts.get(caller);
    const remaining = account ? Math.floor(heldBy(account.draw) + EPSILON) : 0;
    const full = account !== undefined && heldBy(account.draw) >= this.cap(terms, active) - EPSILON;
    return {
      limit: Math.floor(terms.guaranteedPerMinute / active + EPSILON),
      remaining,
      reset: full ? 0 : Math.ceil(this.nextTokenMs(caller, now, terms) / 1000),
    };
  }

  /** Accounts idle for a minute give back what they hold. */
  private expire(bucket: TokenBucket, now: number): void {
    for (const [caller, account] of this.accounts) {
      if (caller !== WELCOME && account.lastCall <= now - SHARE_WINDOW_MS) this.drop(caller, bucket, now);
    }
  }

  private drop(caller: string, bucket: TokenBucket, now: number): void {
    const account = this.accounts.get(caller);
    if (!account) return;
    this.accounts.delete(caller);
    if (heldBy(account.draw) > EPSILON) bucket.refund(account.draw, now);
  }

  clear(): void {
    this.accounts.clear();
    this.accounts.set(WELCOME, { draw: { public: 0, gateway: 0, shared: 0 }, lastCall: Number.POSITIVE_INFINITY });
  }
}
