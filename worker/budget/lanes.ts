/**
 * Who gets the next upstream slot. Visitors' misses (lane `public`) and gateway keys (lanes `gateway-write`,
 * `gateway-read`) are the two sides of the budget: each queues apart and spends its own reserve and the shared pool
 * (token-bucket.ts), so neither can take what the other is owed. Inside the gateway's side, writes go before reads;
 * inside a lane, callers (a hashed visitor address, a gateway key id) take turns, so one busy caller cannot starve the
 * others.
 *
 * Above lanes, a side's waiters go by tier: first the next call of a load already under way (what it spent so far is
 * wasted unless it finishes), then anything a caller is waiting for, then work nobody waits for (a background refresh
 * of an entry that is being served stale meanwhile). A waiter may need several tokens at once (a load's reservation);
 * the queue is served in order, so one needing three is not overtaken by single calls behind it for ever.
 */
import type { Draw, Share } from './token-bucket.ts';

export const LANES = ['public', 'gateway-write', 'gateway-read'] as const;
export type Lane = (typeof LANES)[number];

/** The share of the budget a lane draws on. */
export function shareOf(lane: Lane): Share {
  return lane === 'public' ? 'public' : 'gateway';
}
const SHARE_LANES: Record<Share, readonly Lane[]> = {
  public: LANES.filter((lane) => shareOf(lane) === 'public'),
  gateway: LANES.filter((lane) => shareOf(lane) === 'gateway'),
};

/** 0: the next call of a load under way; 1: a caller waits for it (the default); 2: nobody waits. */
export type Tier = 0 | 1 | 2;
export const TIERS: readonly Tier[] = [0, 1, 2];

export interface Waiter {
  lane: Lane;
  caller: string;
  /** Tokens it takes at once (1 unless it is a load's reservation). */
  need?: number;
  tier?: Tier;
  grant: (draw?: Draw) => void;
  /** Sends the waiter away without a slot (the object is being reset). */
  refuse: () => void;
}

export class LaneQueue {
  /** Per tier, per lane: callers in turn order, each with its FIFO of waiters. */
  private readonly tiers = TIERS.map(() => new Map<Lane, Map<string, Waiter[]>>(LANES.map((lane) => [lane, new Map()])));
  private readonly counts: Record<Share, number> = { public: 0, gateway: 0 };

  get size(): number {
    return this.counts.public + this.counts.gateway;
  }

  /** Waiters drawing on `share`. */
  sizeOf(share: Share): number {
    return this.counts[share];
  }

  private callersOf(waiter: Waiter): Map<string, Waiter[]> {
    return this.tiers[waiter.tier ?? 1]!.get(waiter.lane)!;
  }

  push(waiter: Waiter): void {
    const callers = this.callersOf(waiter);
    const queue = callers.get(waiter.caller);
    if (queue) queue.push(waiter);
    else callers.set(waiter.caller, [waiter]);
    this.counts[shareOf(waiter.lane)] += 1;
  }

  /** Where the next waiter of `share` is: its first tier, its highest lane, the caller whose turn it is. */
  private head(share: Share): { callers: Map<string, Waiter[]>; caller: string; queue: Waiter[] } | undefined {
    for (const lanes of this.tiers) {
      for (const lane of SHARE_LANES[share]) {
        const callers = lanes.get(lane)!;
        const first = callers.entries().next();
        if (!first.done) return { callers, caller: first.value[0], queue: first.value[1] };
      }
    }
    return undefined;
  }

  /** The waiter `shift` would hand out next, left in place (to see how many tokens it needs). */
  peek(share: Share): Waiter | undefined {
    return this.head(share)?.queue[0];
  }

  /** The next waiter of `share`: its first tier, then its highest lane, then round-robin across that lane's callers. */
  shift(share: Share): Waiter | undefined {
    const head = this.head(share);
    if (!head) return undefined;
    const { callers, caller, queue } = head;
    const waiter = queue.shift()!;
    // Move the caller to the back of the turn order (Map keeps insertion order).
    callers.delete(caller);
    if (queue.length > 0) callers.set(caller, queue);
    this.counts[share] -= 1;
    return waiter;
  }

  remove(waiter: Waiter): boolean {
    const callers = this.callersOf(waiter);
    const queue = callers.get(waiter.caller);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) callers.delete(waiter.caller);
    this.counts[shareOf(waiter.lane)] -= 1;
    return true;
  }

  /**
   * How many tokens the waiters of its share served before one that joins `lane` at `tier` now will take (for a
   * Retry-After estimate; with single calls, how many waiters).
   */
  ahead(lane: Lane, tier: Tier = 1): number {
    let n = 0;
    for (const t of TIERS) {
      if (t > tier) break;
      for (const l of SHARE_LANES[shareOf(lane)]) {
        for (const queue of this.tiers[t]!.get(l)!.values()) for (const waiter of queue) n += waiter.need ?? 1;
        if (t === tier && l === lane) break;
      }
    }
    return n;
  }

  clear(): Waiter[] {
    const all: Waiter[] = [];
    for (const lanes of this.tiers) {
      for (const callers of lanes.values()) {
        for (const queue of callers.values()) all.push(...queue);
        callers.clear();
      }
    }
    this.counts.public = 0;
    this.counts.gateway = 0;
    return all;
  }
}
