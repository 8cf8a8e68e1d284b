/**
 * How long a browser or a shared cache may keep each kind of public answer, in one table. An answer under no policy
 * is `public` for its cap (and never longer than the worker's own freshness for that kind, `cache.<kind>`), then
 * revalidated with its ETag; an answer that depends on who asks (a policy applied, a caller's own location) is
 * `private, no-store` whatever its kind.
 */
import type { Config } from '../config.ts';
import { PRIVATE_NO_STORE, publicCacheControl } from '../http/respond.ts';

export type ResourceKind = 'feed' | 'media' | 'player' | 'geo' | 'gate';
export type PageKind = 'embed' | 'oembed';

/** Seconds a shared answer may be kept; `null`: it is always the caller's own. */
export const CACHE_CAPS: Readonly<Record<ResourceKind | PageKind, number | null>> = {
  /** Feeds change as playlists are edited: a minute. */
  feed: 60,
  media: 300,
  player: 300,
  /** The caller's own location, and a policy's decision for them. */
  geo: null,
  gate: null,
  /** An iframe embed page of content under no policy (it names a versioned bundle). */
  embed: 300,
  /** An oEmbed answer of content under no policy (its own `cache_age` says an hour). */
  oembed: 300,
};

/** The worker's own freshness bounds the catalog kinds: a browser never keeps longer than the worker does. */
const BOUNDED_BY_FRESHNESS = new Set<string>(['feed', 'media', 'player']);

/** The `Cache-Control` of an answer of `kind`; `personal` when it depends on who asks. */
export function cacheControlFor(kind: ResourceKind | PageKind, config: Config, personal: boolean): string {
  const cap = CACHE_CAPS[kind];
  if (personal || cap === null) return PRIVATE_NO_STORE;
  const fresh = BOUNDED_BY_FRESHNESS.has(kind) ? config.cache[kind as 'feed' | 'media' | 'player'].freshSeconds : Infinity;
  return publicCacheControl(Math.min(cap, fresh));
}
