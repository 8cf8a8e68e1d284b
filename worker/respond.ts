/** JSON answers with the headers every public answer carries: ETag (+304), Cache-Control, cache state, Server-Timing. */
import type { CacheState } from './cache/cached.ts';
import { etagOf } from './cache/envelope.ts';
import type { ServerTiming } from './server-timing.ts';

export const CACHE_STATE_HEADER = 'x-reelgate-cache';

export interface JsonOptions {
  cacheControl: string;
  cacheState?: CacheState;
  /** When the cached answer was stored: sent as `Age`. */
  storedAt?: number;
  timing?: ServerTiming;
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export async function jsonResponse(request: Request, body: unknown, options: JsonOptions): Promise<Response> {
  const text = JSON.stringify(body);
  const etag = await etagOf(text);
  const headers = new Headers({ 'cache-control': options.cacheControl, etag });
  if (options.cacheState) headers.set(CACHE_STATE_HEADER, options.cacheState);
  if (options.storedAt !== undefined) headers.set('age', String(Math.max(0, Math.floor((Date.now() - options.storedAt) / 1000))));
  if (options.timing) headers.set('server-timing', options.timing.header());
  if (matches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(text, { status: 200, headers });
}

/** Browser caching of a public answer: a short max-age, then revalidation with the ETag. */
export function publicCacheControl(maxAgeSeconds: number): string {
  return `public, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}, stale-while-revalidate=60`;
}
/** An answer that depends on who asks (their location): no shared or stored copies. */
export const PRIVATE_NO_STORE = 'private, no-store';
