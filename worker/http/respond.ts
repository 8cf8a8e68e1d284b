/** JSON answers with the headers every public answer carries: ETag (+304), Cache-Control, cache state, Server-Timing. */
import type { ServerTiming } from './server-timing.ts';

export const CACHE_STATE_HEADER = 'x-reelgate-cache';

/** How a cached answer was served (the `x-reelgate-cache` header): fresh from a cache, fetched anew, or stale while a refresh runs. */
export type CacheState = 'HIT' | 'MISS' | 'STALE';

/** A strong ETag over a JSON text: the first 16 bytes of its SHA-256, base64url (also the cache entries' tags). */
export async function etagOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest.subarray(0, 16)) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}

export interface JsonOptions {
  cacheControl: string;
  cacheState?: CacheState;
  /** When the cached answer was stored: sent as `Age`. */
  storedAt?: number;
  timing?: ServerTiming;
}

/** A JSON body as sent, with its strong ETag. */
export interface RenderedJson {
  text: string;
  etag: string;
}

/** Responses built here: their headers are this worker's own and may still be changed (see `isOwnResponse`). */
const own = new WeakSet<Response>();

/** Whether the response was built by `jsonResponse`/`renderedResponse`, so its headers are mutable as it stands. */
export function isOwnResponse(response: Response): boolean {
  return own.has(response);
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The body as text and its ETag, the SHA-256 of that text (`etagOf`). */
export async function renderJson(body: unknown): Promise<RenderedJson> {
  const text = JSON.stringify(body);
  return { text, etag: await etagOf(text) };
}

/**
 * An answer built for this request. `etag`, when given, is a tag already known to stand for exactly this body (e.g.
 * derived from the cache entry it is a fixed function of), which saves hashing the text.
 */
export async function jsonResponse(request: Request, body: unknown, options: JsonOptions & { etag?: string }): Promise<Response> {
  const text = JSON.stringify(body);
  return renderedResponse(request, { text, etag: options.etag ?? await etagOf(text) }, options);
}

/** An answer whose body was rendered before (possibly for an earlier request): 304 when the client holds it. */
export function renderedResponse(request: Request, { text, etag }: RenderedJson, options: JsonOptions): Response {
  const headers = new Headers();
  headers.set('cache-control', options.cacheControl);
  headers.set('etag', etag);
  if (options.cacheState) headers.set(CACHE_STATE_HEADER, options.cacheState);
  if (options.storedAt !== undefined) headers.set('age', String(Math.max(0, Math.floor((Date.now() - options.storedAt) / 1000))));
  if (options.timing) headers.set('server-timing', options.timing.header());
  let response: Response;
  if (matches(request.headers.get('if-none-match'), etag)) {
    response = new Response(null, { status: 304, headers });
  } else {
    headers.set('content-type', 'application/json; charset=utf-8');
    response = new Response(text, { status: 200, headers });
  }
  own.add(response);
  return response;
}

/** An answer never stored anywhere (errors, the gateway's and admin's JSON). */
export function noStoreJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** Browser caching of a public answer: a short max-age, then revalidation with the ETag. */
export function publicCacheControl(maxAgeSeconds: number): string {
  return `public, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}, stale-while-revalidate=60`;
}
/** An answer that depends on who asks (their location): no shared or stored copies. */
export const PRIVATE_NO_STORE = 'private, no-store';
