/**
 * Who gets the next upstream slot. Lanes are strict priorities (widget misses before gateway writes before gateway
 * reads); inside a lane, callers (a hashed visitor address, a gateway key id) take turns, so one busy caller cannot
 * starve the others.
 */
export const LANES = ['public', 'gateway-write', 'gateway-read'] as const;
export type Lane = (typeof LANES)[number];

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
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(waiter: Waiter): void {
    const callers = this.lanes.get(waiter.lane)!;
    const queue = callers.get(waiter.caller);
    if (queue) queue.push(waiter);
    else callers.set(waiter.caller, [waiter]);
    this.count += 1;
  }

  /** The next waiter: highest lane first, then round-robin across that lane's callers. */
  shift(): Waiter | undefined {
    for (const lane of LANES) {
      const callers = this.lanes.get(lane)!;
      const first = callers.entries().next();
      if (first.done) continue;
      const [caller, queue] = first.value;
      const waiter = queue.shift()!;
      // Move the caller to the back of the turn order (Map keeps insertion order).
      callers.delete(caller);
      if (queue.length > 0) callers.set(caller, queue);
      this.count -= 1;
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
    this.count -= 1;
    return true;
  }

  /** How many waiters would be served before one that joins `lane` now (for a Retry-After estimate). */
  ahead(lane: Lane): number {
    let n = 0;
    for (const l of LANES) {
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
    this.count = 0;
    return all;
  }
}
