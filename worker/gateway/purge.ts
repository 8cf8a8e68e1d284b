/**
 * After a successful write, the cached public answers it makes stale are deleted, so the next widget read goes to the
 * upstream instead of waiting out the TTL. Keys follow the edge worker's scheme (routes/*.ts): `feed:<site>:<playlist>`
 * (plus `:<seed>:<tags>` variants), `media:<site>:<media>`, `player:<site>:<player>`. Other isolates' memory layers
 * may hold an entry for at most `cache.memory_ms` longer.
 */
import { forgetCached } from '../cache/cached.ts';
import type { MatchedRoute } from './v2-routes.ts';

/** A site's cached entries are few; this bounds the work a purge can do. */
const MAX_LIST_PAGES = 10;

async function keysWithPrefix(kv: KVNamespace, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const listed: KVNamespaceListResult<unknown> = await kv.list({ prefix, ...(cursor ? { cursor } : {}) });
    keys.push(...listed.keys.map((key) => key.name));
    if (listed.list_complete) break;
    cursor = listed.cursor;
  }
  return keys;
}

/** The exact keys and key prefixes a write on `route` makes stale. */
export function purgeTargets(route: MatchedRoute): { keys: string[]; prefixes: string[] } {
  const { site, params } = route;
  switch (route.spec.purge) {
    case 'none':
      return { keys: [], prefixes: [] };
    case 'media':
      return { keys: [`media:${site}:${params.media}`], prefixes: [`feed:${site}:`] };
    case 'media-only':
      return { keys: [`media:${site}:${params.media}`], prefixes: [] };
    case 'site-feeds':
      return { keys: [], prefixes: [`feed:${site}:`] };
    case 'playlist':
      return { keys: [`feed:${site}:${params.playlist}`], prefixes: [`feed:${site}:${params.playlist}:`] };
    case 'player':
      return { keys: [`player:${site}:${params.player}`], prefixes: [] };
    case 'site':
      return { keys: [], prefixes: [`feed:${site}:`, `media:${site}:`] };
  }
}

/** Deletes what `route` made stale; returns the keys deleted. Failures are logged, never surfaced to the writer. */
export async function purgeAfterWrite(kv: KVNamespace, route: MatchedRoute): Promise<string[]> {
  const { keys, prefixes } = purgeTargets(route);
  try {
    const listed = await Promise.all(prefixes.map((prefix) => keysWithPrefix(kv, prefix)));
    const all = [...new Set([...keys, ...listed.flat()])];
    forgetCached(all);
    await Promise.all(all.map((key) => kv.delete(key)));
    return all;
  } catch {
    console.error('reelgate gateway: cache purge failed for', route.spec.name);
    return [];
  }
}
