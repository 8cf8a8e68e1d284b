/**
 * CORS: the API answers browsers of configured origins only (echoing the origin, with `Vary: Origin`); the embed
 * script and its files (`/embed/<file>`) may load on any page. The iframe embed pages (`/embed/<site>/…`) get no CORS
 * at all: a page is framed, never fetched, and a page on another origin must not read which answer (the content's
 * title, or the 451 refusal) its visitor got. Preflights and calls from other origins are refused in
 * the v2 error format, naming the origin (`allowed_origins` takes patterns: origin-patterns.ts).
 */
import type { Config } from '../config.ts';
import { ApiError } from './errors.ts';
import { originMatcher, type OriginMatcher } from './origin-patterns.ts';
import { isApi, isEmbedAsset } from './paths.ts';

const EXPOSED = 'ETag, Server-Timing, Retry-After, x-reelgate-cache';
const ALLOWED_REQUEST_HEADERS = 'if-none-match';
/** With DEV_MODE on, the widgets may send the stand-in address header across origins too. */
const ALLOWED_REQUEST_HEADERS_DEV = `${ALLOWED_REQUEST_HEADERS}, x-reelgate-dev-ip`;

/** One matcher per parsed configuration (config.ts has validated its entries). */
const matchers = new WeakMap<Config, OriginMatcher>();

export function originAllowed(config: Config, origin: string | null): origin is string {
  let matcher = matchers.get(config);
  if (!matcher) matchers.set(config, matcher = originMatcher(config.allowedOrigins));
  return matcher(origin);
}

/** An origin as browsers send one (`https://host[:port]`), so echoing it reflects nothing a caller made up. */
function wellFormed(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.origin === origin && (url.protocol === 'https:' || url.protocol === 'http:');
  } catch {
    return false;
  }
}

function originRefused(origin: string, readable: boolean): ApiError {
  if (!wellFormed(origin)) return new ApiError(403, 'origin_not_allowed', 'This origin may not call this API.');
  return new ApiError(403, 'origin_not_allowed', `Pages on ${origin} may not call this API: add the origin (or a pattern `
    + 'such as https://*.example.com) to the worker\'s allowed_origins.', null,
  // Readable by the refused page, so the elements can say why instead of "could not be reached".
  readable ? { 'access-control-allow-origin': origin } : {});
}

/**
 * A browser call to the API from a page whose origin is not allowed is refused, naming the origin: a page that
 * misses from allowed_origins learns why. Calls without an Origin (servers, same-origin GETs) are not browsers' CORS
 * business and pass.
 */
export function refuseOtherOrigins(request: Request, config: Config): void {
  const origin = request.headers.get('origin');
  if (!origin) return;
  const url = new URL(request.url);
  if (!isApi(url.pathname) || originAllowed(config, origin) || origin === url.origin) return;
  throw originRefused(origin, true);
}

/** Answers an OPTIONS request, or null when it is not one. */
export function preflight(request: Request, config: Config, devMode = false): Response | null {
  if (request.method !== 'OPTIONS') return null;
  const path = new URL(request.url).pathname;
  if (isEmbedAsset(path)) {
    return new Response(null, { status: 204, headers: { 'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS', 'access-control-max-age': '86400' } });
  }
  if (!isApi(path)) throw new ApiError(405, 'method_not_allowed', 'Only GET and HEAD are supported here.');
  const origin = request.headers.get('origin');
  if (!origin) throw new ApiError(403, 'origin_not_allowed', 'A preflight must name its origin.');
  // A refused preflight is never readable by the page (browsers need a 2xx), but the network panel shows this text.
  if (!originAllowed(config, origin)) throw originRefused(origin, false);
  const method = request.headers.get('access-control-request-method');
  if (method && method !== 'GET' && method !== 'HEAD') {
    throw new ApiError(405, 'method_not_allowed', 'Only GET and HEAD are supported.');
  }
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': devMode ? ALLOWED_REQUEST_HEADERS_DEV : ALLOWED_REQUEST_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    },
  });
}

/**
 * Adds the CORS headers of an actual (non-preflight) answer. `path` is the request's URL path when the caller has it
 * already (a path that passed the front door's check reads the same raw as parsed).
 */
export function applyCors(request: Request, response: Response, config: Config | null,
  path = new URL(request.url).pathname): void {
  const headers = response.headers;
  if (isEmbedAsset(path)) {
    headers.set('access-control-allow-origin', '*');
    return;
  }
  if (!isApi(path)) return;
  headers.append('vary', 'Origin');
  allowOrigin(request, headers, config);
}

/**
 * The part of `applyCors` that depends on who asks: an allowed Origin is echoed. For an API answer that already says
 * `Vary: Origin` (built with it: http/respond.ts).
 */
export function allowOrigin(request: Request, headers: Headers, config: Config | null): void {
  const origin = request.headers.get('origin');
  if (config && originAllowed(config, origin) && !headers.has('access-control-allow-origin')) {
    headers.set('access-control-allow-origin', origin);
    headers.set('access-control-expose-headers', EXPOSED);
    headers.set('timing-allow-origin', origin);
  }
}
