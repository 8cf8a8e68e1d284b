/**
 * What a successful write makes stale, by its route's purge scope, in the cache's own keys (catalog/keys.ts); the cache
 * deletes them (cache/cached.ts `invalidate`), so the next widget read goes to the upstream instead of waiting out the
 * TTL.
 */
import { invalidate } from '../cache/index.ts';
import { cacheKeys, cachePrefixes } from '../catalog/index.ts';
import type { MatchedRoute } from './v2-routes.ts';

/** The exact keys and key prefixes a write on `route` makes stale. */
export function purgeTargets(route: MatchedRoute): { keys: string[]; prefixes: string[] } {
  const { site, params } = route;
  switch (route.spec.purge) {
    case 'none':
      return { keys: [], prefixes: [] };
    case 'media':
      return { keys: [cacheKeys.media(site, params.media!)], prefixes: [cachePrefixes.siteFeeds(site)] };
    case 'media-only':
      return { keys: [cacheKeys.media(site, params.media!)], prefixes: [] };
    case 'site-feeds':
      return { keys: [], prefixes: [cachePrefixes.siteFeeds(site)] };
    case 'playlist':
      return { keys: [cacheKeys.feed(site, params.playlist!)], prefixes: [cachePrefixes.playlistVariants(site, params.playlist!)] };
    case 'player':
      return { keys: [cacheKeys.player(site, params.player!)], prefixes: [] };
    case 'site':
      return { keys: [], prefixes: [cachePrefixes.siteFeeds(site), cachePrefixes.siteMedia(site)] };
  }
}

/** Deletes what `route` made stale; returns the keys deleted. Failures are logged, never surfaced to the writer. */
export async function purgeAfterWrite(kv: KVNamespace, route: MatchedRoute): Promise<string[]> {
  try {
    return await invalidate(kv, purgeTargets(route));
  } catch {
    console.error('reelgate gateway: cache purge failed for', route.spec.name);
    return [];
  }
}
