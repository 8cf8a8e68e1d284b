/**
 * The bytes: fetched from the delivery host the worker resolved (a request built from scratch, redirects not
 * followed), streamed through without buffering, with the validators and range headers a player needs. Playlists are
 * rewritten (hls.ts). Segments, text tracks and posters are kept in the edge cache (Cache API) under their upstream
 * URL, so every token, viewer and expiry shares one copy; progressive files (MP4, hundreds of MB) are streamed and
 * never cached here.
 */
import { notFound, upstreamUnavailable } from '../errors.ts';
import { isPlaylist, PlaylistOutsideFolder, rewritePlaylist } from './hls.ts';
import type { Resolved } from './resolve.ts';
import type { PlaybackGrant } from './token.ts';

export const PLAYBACK_CACHE_HEADER = 'x-reelgate-cache';
/** Headers of the upstream answer passed on to the player. */
const PASSED = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];
/** Headers of the player's request passed on upstream (validated first). */
const RANGE = /^bytes=(\d+-\d*|-\d+)$/;
const UPSTREAM_TIMEOUT_MS = 15_000;

export interface DeliverOptions {
  request: Request;
  ctx: ExecutionContext;
  grant: PlaybackGrant;
  resolved: Resolved;
  /** `/api/play/<token>/` */
  prefix: string;
  /** Appended to rewritten URIs (development only). */
  suffix: string;
}

/** The player's conditional and range headers, when well-formed; nothing else of the request goes upstream. */
function upstreamHeaders(request: Request, withRange: boolean): Headers {
  const headers = new Headers();
  const range = request.headers.get('range')?.trim();
  if (withRange && range && RANGE.test(range)) headers.set('range', range);
  for (const name of ['if-none-match', 'if-modified-since', 'if-range']) {
    const value = request.headers.get(name);
    if (value && value.length <= 256) headers.set(name, value);
  }
  return headers;
}

function cacheable(grant: PlaybackGrant): boolean {
  return grant.resource !== 'source' || grant.scope === 'folder';
}

async function fetchUpstream(url: URL, method: 'GET' | 'HEAD', headers: Headers): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url.href, { method, headers, redirect: 'manual', signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
  } catch {
    throw upstreamUnavailable(502);
  }
  if ([200, 206, 304, 416].includes(response.status)) return response;
  await response.body?.cancel();
  if (response.status === 404 || response.status === 410) throw notFound('This file is not available.');
  throw upstreamUnavailable(502);
}

/** Cache-Control of bytes: this viewer's browser may keep them while the token lives; shared caches may not. */
function privateUntil(expires: number): string {
  const seconds = Math.max(0, Math.min(3600, expires - Math.floor(Date.now() / 1000)));
  return `private, max-age=${seconds}`;
}

function answer(upstream: Response, grant: PlaybackGrant, cacheState: string | null): Response {
  const headers = new Headers();
  for (const name of PASSED) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set('cache-control', privateUntil(grant.expires));
  if (cacheState) headers.set(PLAYBACK_CACHE_HEADER, cacheState);
  return new Response(upstream.body, { status: upstream.status, headers });
}

export async function deliver({ request, ctx, grant, resolved, prefix, suffix }: DeliverOptions): Promise<Response> {
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
  if (resolved.folder && isPlaylist(resolved.path, null)) {
    const upstream = await fetchUpstream(resolved.upstream, 'GET', new Headers());
    if (upstream.status !== 200) {
      await upstream.body?.cancel();
      throw upstreamUnavailable(502);
    }
    let text: string;
    try {
      text = rewritePlaylist(await upstream.text(), resolved.upstream, resolved.folder, prefix, suffix);
    } catch (error) {
      if (error instanceof PlaylistOutsideFolder) {
        console.error('reelgate: an HLS playlist names a URI outside its rendition folder; refused');
        throw upstreamUnavailable(502);
      }
      throw error;
    }
    return new Response(text, { headers: { 'content-type': 'application/vnd.apple.mpegurl',
      'cache-control': 'private, no-store' } });
  }

  if (!cacheable(grant)) {
    return answer(await fetchUpstream(resolved.upstream, method, upstreamHeaders(request, true)), grant, null);
  }
  // The edge cache, keyed by the upstream URL: no token, no viewer in the key.
  const cache = caches.default;
  const key = new Request(resolved.upstream.href, { method: 'GET' });
  const wantsRange = request.headers.has('range');
  const hit = await cache.match(wantsRange ? new Request(key, { headers: upstreamHeaders(request, true) }) : key);
  if (hit) return answer(hit, grant, 'HIT');
  if (wantsRange || method === 'HEAD') {
    return answer(await fetchUpstream(resolved.upstream, method, upstreamHeaders(request, true)), grant, 'MISS');
  }
  const upstream = await fetchUpstream(resolved.upstream, 'GET', upstreamHeaders(request, false));
  if (upstream.status === 200 && !upstream.headers.has('set-cookie') &&
    !/private|no-store/i.test(upstream.headers.get('cache-control') ?? '')) {
    // Small files only reach here (segments, tracks, posters): a clone for the cache costs at most one file's bytes.
    const copy = upstream.clone();
    const stored = new Headers(copy.headers);
    stored.set('cache-control', 'public, max-age=86400');
    ctx.waitUntil(cache.put(key, new Response(copy.body, { status: 200, headers: stored })).catch(() => {
      console.error('reelgate: playback cache write failed');
    }));
  }
  return answer(upstream, grant, 'MISS');
}
