/**
 * What a playback URL resolves against: the worker's own record of the media, the media answer it cached (KV key
 * `media:<site>:<media>`), never anything the caller sends. Read without loading: a byte request never calls the
 * Management API (nor spends its budget). A media answer handed out with playback URLs is also kept in this isolate
 * for a minute, so its URLs open at once, before the KV write is visible.
 */
import { isEnvelope } from '../cache/envelope.ts';
import { MemoryCache } from '../cache/memory.ts';
import type { Env } from '../env.ts';
import type { MediaResponse } from '../public-api.ts';

const RECENT_MS = 60_000;
const recent = new MemoryCache<MediaResponse>();

const keyOf = (site: string, media: string) => `media:${site}:${media}`;

export function rememberMedia(site: string, media: MediaResponse): void {
  recent.set(keyOf(site, media.id), media, RECENT_MS, Date.now());
}

/** The media as the worker last recorded it, or null when it holds no record. */
export async function recordedMedia(env: Env, site: string, media: string): Promise<MediaResponse | null> {
  const key = keyOf(site, media);
  const stored = await env.CACHE.get(key, 'json');
  if (isEnvelope(stored) && stored.found) {
    const value = stored.value as MediaResponse;
    if (value?.id === media && Array.isArray(value.sources)) return value;
  }
  return recent.get(key, Date.now()) ?? null;
}
