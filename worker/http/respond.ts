/** JSON answers with the headers every public answer carries: ETag (+304), Cache-Control, cache state, Server-Timing. */
import { isApi, rawTarget } from './paths.ts';
import { dataAnswerSecurityHeaders } from './security-headers.ts';
import type { ServerTiming } from './server-timing.ts';
import { BoundedMap } from './bounded-map.ts';

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

const JSON_TYPE = 'application/json; charset=utf-8';

const MAX_PREBUILT = 512;
/**
 * A 200 answer's headers that are the same for every request answered from one entry: its Cache-Control and ETag,
 * its type, and what the front door would add to it (`Vary: Origin` on the API, the security headers of a data
 * answer, HSTS over https). Built once and copied into each answer in one step, instead of set one by one on every
 * answer (a header set is a call into the runtime, and a HIT carries fourteen). Bounded, oldest out first.
 */
const prebuilt = new BoundedMap<string, Headers>(MAX_PREBUILT);

function prebuiltHeaders(cacheControl: string, etag: string, https: boolean, api: boolean): Headers {
  const key = `${https ? 's' : '-'}${api ? 'a' : '-'}${cacheControl}\n${etag}`;
  let headers = prebuilt.get(key);
  if (!headers) {
    headers = new Headers([['cache-control', cacheControl], ['etag', etag], ['content-type', JSON_TYPE],
      ...(api ? [['vary', 'Origin'] as [string, string]] : []), ...dataAnswerSecurityHeaders(https)]);
    prebuilt.set(key, headers);
  }
  return headers;
}

/** Answers that already carry the front door's per-path headers (see `prebuiltHeaders`): it adds only the caller's CORS. */
const dressed = new WeakSet<Response>();

/** Whether the response was built with the security headers and `Vary` the front door would give it at its path. */
export function isDressed(response: Response): boolean {
  return dressed.has(response);
}

/** An answer whose body was rendered before (possibly for an earlier request): 304 when the client holds it. */
export function renderedResponse(request: Request, { text, etag }: RenderedJson, options: JsonOptions): Response {
  let response: Response;
  let headers: Headers;
  if (matches(request.headers.get('if-none-match'), etag)) {
    headers = new Headers();
    headers.set('cache-control', options.cacheControl);
    headers.set('etag', etag);
    response = new Response(null, { status: 304, headers });
    headers = response.headers;
  } else {
    const api = isApi(rawTarget(request.url).path);
    response = new Response(text, { status: 200, headers: prebuiltHeaders(options.cacheControl, etag, request.url.startsWith('https:'), api) });
    headers = response.headers;
    dressed.add(response);
  }
  if (options.cacheState) headers.set(CACHE_STATE_HEADER, options.cacheState);
  if (options.storedAt !== undefined) headers.set('age', String(Math.max(0, Math.floor((Date.now() - options.storedAt) / 1000))));
  if (options.timing) headers.set('server-timing', options.timing.header());
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
