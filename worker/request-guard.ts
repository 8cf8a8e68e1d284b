/**
 * What a request may look like before any route sees it, so the worker cannot be turned into an open proxy: read
 * methods only, a short path of plain characters (no encoded slashes or dots, no `..`, no `//`, no absolute URL), a
 * bounded query, and ids of the platform's format. Only parameters a route declares are accepted.
 */
import { ApiError, invalidRequest } from './errors.ts';
import { RESOURCE_ID, SITE_ID } from './config.ts';

export const MAX_PATH_LENGTH = 256;
export const MAX_QUERY_LENGTH = 512;
const PATH_CHARS = /^\/[A-Za-z0-9._~\-/]*$/;

/** The path and query exactly as sent (before URL normalisation resolves `..` or decodes anything). */
function rawTarget(url: string): { path: string; query: string } {
  const afterScheme = url.indexOf('//');
  const pathStart = url.indexOf('/', afterScheme + 2);
  const target = pathStart < 0 ? '/' : url.slice(pathStart);
  const hash = target.indexOf('#');
  const clean = hash < 0 ? target : target.slice(0, hash);
  const q = clean.indexOf('?');
  return q < 0 ? { path: clean, query: '' } : { path: clean.slice(0, q), query: clean.slice(q + 1) };
}

export function guardRequest(request: Request): void {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    throw new ApiError(405, 'method_not_allowed', 'Only GET, HEAD and OPTIONS are supported.');
  }
  const { path, query } = rawTarget(request.url);
  if (path.length > MAX_PATH_LENGTH) throw invalidRequest('The path is too long.');
  if (query.length > MAX_QUERY_LENGTH) throw invalidRequest('The query is too long.');
  if (!PATH_CHARS.test(path) || path.includes('//') || /(^|\/)\.\.?(\/|$)/.test(path)) {
    throw invalidRequest('The path is not valid.');
  }
  if (/%(2f|5c|2e|00)/i.test(query) || query.includes('://')) throw invalidRequest('The query is not valid.');
}

/** Only the named parameters, each at most once. */
export function readQuery<K extends string>(request: Request, allowed: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [name, value] of new URL(request.url).searchParams) {
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
export function tagsParam(value: string | undefined): string[] {
  if (value === undefined) return [];
  const tags = [...new Set(value.split(',').map((t) => t.trim()).filter(Boolean))];
  if (tags.length > 10 || !tags.every((t) => /^[\p{L}\p{N} _.-]{1,64}$/u.test(t))) {
    throw invalidRequest('"tags" must be up to 10 comma-separated tags of letters, digits, spaces, _ - .');
  }
  return tags.sort();
}

