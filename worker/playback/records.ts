/**
 * What a playback URL resolves against: the worker's own record of the media, the media answer it cached (KV key
 * `media:<site>:<media>`), never anything the caller sends. Read without loading: a byte request never calls the
 * Management API (nor spends its budget). A media answer handed out with playback URLs is also kept in this isolate
 * for a minute, so its URLs open at once, before the KV write is visible.
 *
 * A feed names its items' posters without any media answer behind them, so a feed handed out with playback URLs leaves
 * a poster record per item (`poster:<site>:<media>`: the item with its poster and nothing playable), kept in this
 * isolate and in KV for as long as its URLs open. KV is written at most once per item per isolate in that time.
 */
import { isEnvelope, MemoryCache } from '../cache/index.ts';
import { cacheKeys } from '../catalog/index.ts';
import type { Env } from '../env.ts';
import type { FeedItem, MediaResponse } from '../contract/public-api.ts';
import { BoundedMap } from '../http/bounded-map.ts';

const RECENT_MS = 60_000;
const recent = new MemoryCache<MediaResponse>();

const MAX_POSTER_WRITES_TRACKED = 4096;
/** When this isolate last wrote each poster record to KV. */
const posterWrites = new BoundedMap<string, number>(MAX_POSTER_WRITES_TRACKED);

/** The record a feed item's poster URL resolves against: the item, its thumbnail as poster, nothing playable. */
function posterRecord(site: string, item: FeedItem): MediaResponse {
  return { ...item, site, poster: item.thumbnail, thumbnails: [], sources: [], tracks: [] };
}

/** Keeps the poster records of feed items handed out with playback URLs, for `ttlSeconds` (their URLs' lifetime). */
export function rememberFeedPosters(env: Env, ctx: ExecutionContext, site: string, items: readonly FeedItem[],
  ttlSeconds: number): void {
  const now = Date.now();
  for (const item of items) {
    if (!item.thumbnail) continue;
    const key = cacheKeys.poster(site, item.id);
    const record = posterRecord(site, item);
    recent.set(key, record, RECENT_MS, now);
    const written = posterWrites.get(key);
    // Rewritten when half its lifetime is gone, so a record outlives every URL minted while it was fresh.
    if (written !== undefined && now - written < (ttlSeconds * 1000) / 2) continue;
    posterWrites.set(key, now);
    ctx.waitUntil(env.CACHE.put(key, JSON.stringify(record), { expirationTtl: Math.max(60, ttlSeconds) }).catch(() => {
      console.error('reelgate: poster record write failed');
    }));
  }
}

export function rememberMedia(site: string, media: MediaResponse): void {
  recent.set(cacheKeys.media(site, media.id), media, RECENT_MS, Date.now());
}

/** The media as the worker last recorded it, or null when it holds no record. */
export async function recordedMedia(env: Env, site: string, media: string): Promise<MediaResponse | null> {
  const key = cacheKeys.media(site, media);
  const stored = await env.CACHE.get(key, 'json');
  if (isEnvelope(stored) && stored.found) {
    const value = stored.value as MediaResponse;
    if (value?.id === media && Array.isArray(value.sources)) return value;
  }
  const remembered = recent.get(key, Date.now());
  if (remembered) return remembered;
  // No media answer was ever handed out: a poster a feed named may still be asked for.
  const posterKey = cacheKeys.poster(site, media);
  const poster = recent.get(posterKey, Date.now()) ?? await env.CACHE.get<MediaResponse>(posterKey, 'json');
  return poster?.id === media ? poster : null;
}
