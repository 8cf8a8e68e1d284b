/**
 * A token bucket that also listens to the upstream: it never spends what the upstream reports as gone
 * (`svc-request-remaining`) and stops entirely while the upstream has asked for a pause (a 429's `Retry-After`).
 *
 * Its tokens sit in three pools. Each side of the budget (visitors' misses, gateway keys) has a reserve: its floor's
 * share of the burst, refilled at its floor's share of the rate, that only its own calls spend. The rest is shared:
 * either side takes from it first. A pool that is full passes its refill on (a reserve to the shared pool, the shared
 * pool to the reserves), so a side that is idle leaves the other the whole rate, while a flood on one side can never
 * spend the other's reserve nor its share of the refill. The pools together never hold more than the burst nor refill
 * faster than the rate: the global limit is the single bucket's.
 */
export type Share = 'public' | 'gateway';
const SHARES: readonly Share[] = ['public', 'gateway'];
type Pool = Share | 'shared';
const POOLS: readonly Pool[] = ['public', 'gateway', 'shared'];

/**
 * Tokens taken at once for a reservation, by the pool each came from, so that what is not spent goes back where it
 * came from: a side's reserve is never handed to the other side by way of a refund.
 */
export type Draw = Record<Pool, number>;

/** Tokens a draw still holds. */
export function heldBy(draw: Draw | null): number {
  return draw ? draw.public + draw.gateway + draw.shared : 0;
}

/**
 * Spends one token a draw holds, from its pools in `order`; false when it holds less than one. (Reservations of loads
 * and gateway keys' accounts are both draws.)
 */
export function spendOne(draw: Draw | null, order: readonly Pool[]): boolean {
  if (!draw || heldBy(draw) < 1 - 1e-9) return false;
  let need = 1;
  for (const pool of order) {
    const take = Math.min(need, draw[pool]);
    draw[pool] -= take;
    need -= take;
  }
  return true;
}

/** Each side's reserved fraction of the rate and burst; what the two leave is shared. */
export type Floors = Record<Share, number>;
const NO_FLOORS: Floors = { public: 0, gateway: 0 };
/** Tokens are fractions: a sum of shares may land a hair below a whole call that is really there. */
const EPSILON = 1e-9;

export class TokenBucket {
  private readonly tokens: Record<Pool, number>;
  private last: number;
  private pausedUntil = 0;
  /**
   * What the upstream last reported as left in its window, less what we spent since, until that window has moved
   * on. Refilling at our own rate must not spend past it: our rate may exceed the upstream's real one (an API whose
   * limit we do not know, a limit lowered for the account, other holders of the secret).
   */
  private allowance: number | null = null;
  private allowanceUntil = 0;

  /** @param floors each side's reserved fraction (their sum at most 1); none by default: one shared bucket. */
  constructor(
    private ratePerMinute: number,
    private capacity: number,
    now: number,
    private floors: Floors = NO_FLOORS,
  ) {
    this.tokens = { public: this.capOf('public'), gateway: this.capOf('gateway'), shared: this.capOf('shared') };
    this.last = now;
  }

  private fraction(pool: Pool): number {
    // Rounded so that 1 - 0.3 - 0.3 is 0.4, not 0.39999999999999997.
    return pool === 'shared' ? Math.max(0, Math.round((1 - this.floors.public - this.floors.gateway) * 1e12) / 1e12)
      : this.floors[pool];
  }

  private capOf(pool: Pool): number {
    return this.capacity * this.fraction(pool);
  }

  /** Applies a new configuration without losing what has been spent. */
  configure(ratePerMinute: number, capacity: number, floors: Floors = this.floors): void {
    this.ratePerMinute = ratePerMinute;
    this.capacity = capacity;
    this.floors = floors;
    for (const pool of POOLS) this.tokens[pool] = Math.min(this.tokens[pool], this.capOf(pool));
  }

  /** Adds `amount` to `pool` up to its cap; returns what did not fit. */
  private fill(pool: Pool, amount: number): number {
    const cap = this.capOf(pool);
    const next = this.tokens[pool] + amount;
    this.tokens[pool] = Math.min(cap, next);
    return Math.max(0, next - cap);
  }

  /**
   * Adds what the elapsed time refilled: each pool its fraction of the rate; what overflows a full reserve goes to the
   * shared pool, what overflows that goes to the reserves (visitors' first), and what overflows everything is lost.
   */
  private refill(now: number): void {
    const added = (Math.max(0, now - this.last) * this.ratePerMinute) / 60_000;
    this.last = now;
    if (added === 0) return;
    const spilled = this.fill('public', added * this.fraction('public')) + this.fill('gateway', added * this.fraction('gateway'));
    let left = this.fill('shared', added * this.fraction('shared') + spilled);
    for (const share of SHARES) left = this.fill(share, left);
  }

  /** What `share` may spend now: the shared pool and its own reserve. */
  private spendable(share: Share): number {
    return this.tokens.shared + this.tokens[share];
  }

  /** Takes one token for `share` (from the shared pool first, keeping its reserve), if the allowance and any pause let it. */
  tryTake(now: number, share: Share = 'public'): boolean {
    return this.take(now, share, 1) !== null;
  }

  /**
   * Takes `n` tokens for `share` at once, or none: from the shared pool first, then its own reserve, if the allowance
   * and any pause let it. Returns where they came from (for `refund`), or null.
   */
  take(now: number, share: Share = 'public', n = 1, from: 'any' | 'own' | 'shared' = 'any'): Draw | null {
    this.refill(now);
    // `own`: the side's reserve only (a gateway key's account is filled from it); `shared`: the shared pool only.
    const spendable = from === 'own' ? this.tokens[share] : from === 'shared' ? this.tokens.shared : this.spendable(share);
    if (now < this.pausedUntil || spendable < n - EPSILON || this.allowanceLeft(now) < n) return null;
    const fromShared = from === 'own' ? 0 : Math.min(n, this.tokens.shared);
    const fromOwn = from === 'shared' ? 0 : Math.min(this.tokens[share], n - fromShared);
    this.tokens.shared -= fromShared;
    this.tokens[share] -= fromOwn;
    if (this.allowance !== null) this.allowance -= n;
    const draw: Draw = { public: 0, gateway: 0, shared: fromShared };
    draw[share] = fromOwn;
    return draw;
  }

  /**
   * Gives back tokens taken and not spent, each to the pool it came from and no pool beyond its cap: as if they had
   * stayed there, minus any refill that could not fit meanwhile, so the bucket never holds more than it would have
   * without the loan. While paused nothing comes back (the upstream's window starts afresh after it), and the
   * upstream's allowance is not restored (it is learned again from the next answer).
   */
  refund(draw: Draw, now: number): void {
    this.refill(now);
    if (now < this.pausedUntil) return;
    for (const pool of POOLS) this.fill(pool, draw[pool]);
  }

  /** The most tokens `share` can ever hold at once (its reserve and the shared pool): the largest reservation it can get. */
  holdable(share: Share = 'public'): number {
    return Math.floor(this.capOf('shared') + this.capOf(share) + EPSILON);
  }

  private allowanceLeft(now: number): number {
    if (this.allowance !== null && now >= this.allowanceUntil) this.allowance = null;
    return this.allowance ?? Number.POSITIVE_INFINITY;
  }

  /** Tokens `share` may spend now (operators and tests). */
  available(now: number, share: Share = 'public'): number {
    this.refill(now);
    return this.spendable(share);
  }

  /**
   * Milliseconds until `position + 1` tokens are spendable by `share` (0 when one is now): at the rate of its reserve
   * and the shared pool, or at the whole rate while the other side's reserve is full and passes its refill on. (The
   * shared pool's refill may go to the other side too, so under contention this is a lower bound.)
   */
  waitMs(now: number, position = 0, share: Share = 'public'): number {
    this.refill(now);
    const pause = Math.max(0, this.pausedUntil - now);
    const missing = position + 1 - EPSILON - this.spendable(share);
    const other: Share = share === 'public' ? 'gateway' : 'public';
    const otherFull = this.tokens[other] >= this.capOf(other);
    const rate = this.ratePerMinute * (otherFull ? 1 : this.fraction(share) + this.fraction('shared'));
    const refill = missing <= 0 ? 0 : rate > 0 ? (missing * 60_000) / rate : Number.POSITIVE_INFINITY;
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
      this.pause(windowMs, now);
    } else {
      // No pool holds more than is left; the allowance keeps all of them together within it.
      for (const pool of POOLS) this.tokens[pool] = Math.min(this.tokens[pool], left);
      this.allowance = left;
      this.allowanceUntil = now + windowMs;
    }
  }

  pause(ms: number, now: number): void {
    this.refill(now);
    this.empty();
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
  }

  private empty(): void {
    for (const pool of POOLS) this.tokens[pool] = 0;
  }

  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  restorePause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    if (until > this.last) this.empty();
  }
}
