/**
 * One upstream request for identical concurrent reads, and a moment's memory of finished ones.
 *
 * A miss can arrive just after an identical call finished but before the caller's KV write is visible (KV is
 * eventually consistent, up to a minute across locations); it takes the remembered answer instead of spending another
 * upstream call. Refreshes never take it, and any write through the budget object empties it, so no read outlives a
 * change. It also keeps the reads of a load that had to stop, for `PARTIAL_MS`. Pure: no I/O, no timers; the time is
 * the caller's.
 */
import { BoundedMap } from '../http/bounded-map.ts';

/** How long a finished read answers identical misses, and how many such answers are kept. */
export const RECENT_MS = 2_000;
const RECENT_LIMIT = 500;
/**
 * How long the reads of a load that had to stop (out of budget, the upstream pausing us, its reservation expired)
 * answer the next attempt's first miss, so that attempt does not spend them again. They share `RECENT_LIMIT`.
 */
export const PARTIAL_MS = 30_000;

export class Coalescer<T> {
  private readonly pending = new Map<string, Promise<T>>();
  private readonly recent = new BoundedMap<string, { value: T; until: number }>(RECENT_LIMIT);

  constructor(private readonly now: () => number) {}

  /** An answer to `key` remembered and still fresh at `now`. */
  recentAnswer(key: string, now: number): T | undefined {
    const remembered = this.recent.get(key);
    return remembered && remembered.until > now ? remembered.value : undefined;
  }

  /**
   * The in-flight request for `key`, or a new one from `start` that later identical calls join; when it ends it is
   * remembered for `RECENT_MS` if `keep` says so. `joined`: another caller's request was under way.
   */
  share(key: string, start: () => Promise<T>, keep: (value: T) => boolean): { answer: Promise<T>; joined: boolean } {
    const pending = this.pending.get(key);
    if (pending) return { answer: pending, joined: true };
    const answer = start();
    this.pending.set(key, answer);
    void answer.then((value) => {
      this.pending.delete(key);
      if (keep(value)) this.remember(key, value, RECENT_MS);
    });
    return { answer, joined: false };
  }

  /** Answers identical misses with `value` for `forMs` (never shortening what is remembered already). */
  remember(key: string, value: T, forMs: number): void {
    const now = this.now();
    const until = Math.max(now + forMs, this.recent.get(key)?.until ?? 0);
    if (!this.recent.has(key) && this.recent.size >= RECENT_LIMIT) {
      // Expired entries go first; the map drops the oldest of the rest if it is still full.
      for (const [k, entry] of this.recent) if (entry.until <= now) this.recent.delete(k);
    }
    this.recent.set(key, { value, until });
  }

  /** A write went through: no remembered read may answer any more. */
  forgetRecent(): void {
    this.recent.clear();
  }

  clear(): void {
    this.pending.clear();
    this.recent.clear();
  }
}
