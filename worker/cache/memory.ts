/**
 * A small per-isolate layer in front of KV: hot keys skip the KV read for a second or so (`cache.memory_ms`; an entry
 * no purge can name, until its fresh window ends: cached.ts `heldWhileFresh`). Bounded, oldest out first.
 */
import { BoundedMap } from '../http/bounded-map.ts';
const MAX_ENTRIES = 512;

export class MemoryCache<T> {
  private readonly entries = new BoundedMap<string, { value: T; until: number }>(MAX_ENTRIES);

  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs: number, now: number): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, { value, until: now + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
