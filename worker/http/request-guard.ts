/**
 * What a request may look like before anything routes it, so the worker cannot be turned into an open proxy or tricked
 * into a route it did not ask for.
 * - `checkRawPath`, once, at the front door (worker/index.ts) for every path: public API, assets, gateway, admin. It
 *   reads the path exactly as the runtime handed it over, before any URL parsing here could resolve `..`, decode an
 *   escape or turn `\` into `/`: plain URL path characters only, no dot segments, no `//`, no percent-escapes, no
 *   backslashes, at most `MAX_PATH_LENGTH`. (workerd itself resolves literal `..` segments of the request line before
 *   any worker code runs, as Cloudflare's URL normalisation does in front of it; what reaches the worker is checked.)
 * - `guardRequest`, for the public API and assets: read methods only, a shorter path, a bounded query.
 * Only parameters a route declares are accepted (`readQuery`), and ids must be of the platform's format.
 */
import { ApiError, invalidRequest } from './errors.ts';
import { rawTarget } from './paths.ts';
import { RESOURCE_ID, SITE_ID } from '../config.ts';

/** The longest path of any front door (the gateway's nested v2 routes). */
export const MAX_PATH_LENGTH = 512;
/** The public API's and the assets' paths are short. */
export const MAX_PUBLIC_PATH_LENGTH = 256;
export const MAX_QUERY_LENGTH = 512;
/** Paths whose query carries a URL (encoded slashes and `://` expected): oEmbed's `url`. */
const URL_PARAMETER_PATHS = new Set(['/oembed']);
const PATH_CHARS = /^\/[A-Za-z0-9._~\-/]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/** The front door's one path check (see the header); throws 400 `invalid_request`. */
export function checkRawPath(url: string): string {
  const { path } = rawTarget(url);
  if (path.length > MAX_PATH_LENGTH) throw invalidRequest('The path is too long.');
  if (path.includes('\\')) throw invalidRequest('The path is not valid: backslashes are not allowed.');
  if (path.includes('%')) throw invalidRequest('The path is not valid: percent-encoded characters are not allowed.');
  if (!PATH_CHARS.test(path) || path.includes('//') || DOT_SEGMENT.test(path)) {
    throw invalidRequest('The path is not valid: no dot segments, empty segments or characters outside A-Z a-z 0-9 . _ ~ -.');
  }
  return path;
}

/** The public API's and the assets' rules, after `checkRawPath`. */
export function guardRequest(request: Request): void {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    throw new ApiError(405, 'method_not_allowed', 'Only GET, HEAD and OPTIONS are supported.');
  }
  const { path, query } = rawTarget(request.url);
  if (path.length > MAX_PUBLIC_PATH_LENGTH) throw invalidRequest('The path is too long.');
  if (query.length > MAX_QUERY_LENGTH) throw invalidRequest('The query is too long.');
  // `/oembed` takes a URL as a parameter by definition; its route reads that URL strictly (worker/embed/targets.ts).
  if (URL_PARAMETER_PATHS.has(path)) return;
  if (/%(2f|5c|2e|00)/i.test(query) || query.includes('://')) throw invalidRequest('The query is not valid.');
}

/** Only the named parameters, each at most once. */
export function readQuery<K extends string>(request: Request, allowed: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  // The query as sent, parsed as URL.searchParams would parse it, without parsing the rest of the URL again (and not
  // at all when there is none: most HITs).
  const { query } = rawTarget(request.url);
  if (query === '') return out;
  for (const [name, value] of new URLSearchParams(query)) {
    if (!(allowed as readonly string[]).includes(name)) throw invalidRequest(`Unknown query parameter "${name.slice(0, 32).replace(/[^\w-]/g, '')}".`);
    if (out[name as K] !== undefined) throw invalidRequest(`The query parameter "${name}" is repeated.`);
    out[name as K] = value;
  }
  return out;
}

export function requireSiteId(value: string | undefined): string {
  if (!value || !SITE_ID.test(value)) throw invalidRequest('The site id is not valid.');
  return value;
}

export function requireId(value: string | undefined, what: string): string {
  if (!value || !RESOURCE_ID.test(value)) throw invalidRequest(`The ${what} id is not valid.`);
  return value;
}

export function intParam(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,6}$/.test(value)) throw invalidRequest(`"${name}" must be a whole number.`);
  const n = Number(value);
  if (n < min || n > max) throw invalidRequest(`"${name}" must be from ${min} to ${max}.`);
  return n;
}

/** Comma-separated tags: at most 10, each 1-64 characters of letters, digits, space, `_`, `-`, `.`. */
/**
 * A search feed's phrase (or an article's title, as a page's `document.title` reads: colons, question marks, quotes):
 * 1-100 letters, marks, digits, punctuation and spaces, with at least one letter or digit (the platform matches words,
 * and refuses a phrase of none), spaces collapsed and lower-cased (the search is case-insensitive, so `Lisbon` and
 * `lisbon` are one cache entry). Symbols (`<`, `+`, `$`, `|` …) and control characters are refused.
 */
export function searchParam(value: string | undefined): string | null {
  if (value === undefined) return null;
  const phrase = value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (!/^[\p{L}\p{M}\p{N}\p{P} ]{1,100}$/u.test(phrase) || !/[\p{L}\p{N}]/u.test(phrase)) {
    throw invalidRequest('"search" must be 1 to 100 letters, digits, punctuation or spaces, with at least one letter or digit.');
  }
  return phrase;
}

export function tagsParam(value: string | undefined): string[] {
  if (value === undefined) return [];
  const tags = [...new Set(value.split(',').map((t) => t.trim()).filter(Boolean))];
  if (tags.length > 10 || !tags.every((t) => /^[\p{L}\p{N} _.-]{1,64}$/u.test(t))) {
    throw invalidRequest('"tags" must be up to 10 comma-separated tags of letters, digits, spaces, _ - .');
  }
  return tags.sort();
}

