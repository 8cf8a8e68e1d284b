/**
 * Who gets the next upstream slot. Visitors' misses (lane `public`) and gateway keys (lanes `gateway-write`,
 * `gateway-read`) are the two sides of the budget: each queues apart and spends its own reserve and the shared pool
 * (token-bucket.ts), so neither can take what the other is owed. Inside the gateway's side, writes go before reads;
 * inside a lane, callers (a hashed visitor address, a gateway key id) take turns, so one busy caller cannot starve the
 * others.
 */
import type { Share } from './token-bucket.ts';

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

export interface Waiter {
  lane: Lane;
  caller: string;
  grant: () => void;
  /** Sends the waiter away without a slot (the object is being reset). */
  refuse: () => void;
}

export class LaneQueue {
  /** Per lane: callers in turn order, each with its FIFO of waiters. */
  private readonly lanes = new Map<Lane, Map<string, Waiter[]>>(LANES.map((lane) => [lane, new Map()]));
  private readonly counts: Record<Share, number> = { public: 0, gateway: 0 };

  get size(): number {
    return this.counts.public + this.counts.gateway;
  }

  /** Waiters drawing on `share`. */
  sizeOf(share: Share): number {
    return this.counts[share];
  }

  push(waiter: Waiter): void {
    const callers = this.lanes.get(waiter.lane)!;
    const queue = callers.get(waiter.caller);
    if (queue) queue.push(waiter);
    else callers.set(waiter.caller, [waiter]);
    this.counts[shareOf(waiter.lane)] += 1;
  }

  /** The next waiter of `share`: its highest lane first, then round-robin across that lane's callers. */
  shift(share: Share): Waiter | undefined {
    for (const lane of SHARE_LANES[share]) {
      const callers = this.lanes.get(lane)!;
      const first = callers.entries().next();
      if (first.done) continue;
      const [caller, queue] = first.value;
      const waiter = queue.shift()!;
      // Move the caller to the back of the turn order (Map keeps insertion order).
      callers.delete(caller);
      if (queue.length > 0) callers.set(caller, queue);
      this.counts[share] -= 1;
      return waiter;
    }
    return undefined;
  }

  remove(waiter: Waiter): boolean {
    const callers = this.lanes.get(waiter.lane)!;
    const queue = callers.get(waiter.caller);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) callers.delete(waiter.caller);
    this.counts[shareOf(waiter.lane)] -= 1;
    return true;
  }

  /** How many waiters of its share would be served before one that joins `lane` now (for a Retry-After estimate). */
  ahead(lane: Lane): number {
    let n = 0;
    for (const l of SHARE_LANES[shareOf(lane)]) {
      for (const queue of this.lanes.get(l)!.values()) n += queue.length;
      if (l === lane) break;
    }
    return n;
  }

  clear(): Waiter[] {
    const all: Waiter[] = [];
    for (const callers of this.lanes.values()) {
      for (const queue of callers.values()) all.push(...queue);
      callers.clear();
    }
    this.counts.public = 0;
    this.counts.gateway = 0;
    return all;
  }
}
