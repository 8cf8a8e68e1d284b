/**
 * How many distinct variants (a recommendations feed's `seed`, an article-matching feed's `tags`) each playlist may
 * load from the upstream per window. Every new value is a new cache key and costs upstream calls, so without a bound
 * anyone can turn random values into a stream of misses. A variant admitted in the window is admitted again (its
 * refreshes, other isolates' misses of it); a new one beyond the cap is refused until the oldest admission leaves the
 * window. Kept in the budget object, so the bound holds across every isolate. The same count bounds the new addresses
 * of one IPv6 /64 the Geo API is asked about (scope: the /64, variant: the address; BudgetObject.admitGeoLookup).
 */
import { BoundedMap } from '../http/bounded-map.ts';
export type VariantAdmission = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Playlists tracked at once; the least recently active is forgotten first. */
const MAX_SCOPES = 10_000;

export class VariantLimiter {
  /** Per playlist: variant key → when it was admitted, oldest first. */
  private readonly scopes = new BoundedMap<string, Map<string, number>>(MAX_SCOPES);

  /**
   * @param scope the playlist (`site:playlist`)
   * @param variant the variant's key
   */
  admit(scope: string, variant: string, maxVariants: number, windowMs: number, now: number): VariantAdmission {
    const admitted = this.scopes.get(scope) ?? new Map<string, number>();
    for (const [key, at] of admitted) {
      if (at > now - windowMs) break;
      admitted.delete(key);
    }
    // Most recently active playlists last, so the oldest is the one forgotten.
    this.scopes.set(scope, admitted);

    if (admitted.has(variant)) return { ok: true };
    if (admitted.size < maxVariants) {
      admitted.set(variant, now);
      return { ok: true };
    }
    if (admitted.size === 0) {
      this.scopes.delete(scope);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(windowMs / 1000)) };
    }
    const oldest = admitted.values().next().value!;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
  }

  clear(): void {
    this.scopes.clear();
  }
}
