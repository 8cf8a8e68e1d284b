/**
 * Reading a request's target without parsing a URL, and the one classifier of paths: which front door a path comes in
 * by (the metrics count requests by it), the API (CORS, the abuse limit), its playback bytes (their own security
 * headers) and the embed bundle's files (CORS for every page). Leaf module: imports nothing.
 */

/** Where playback URLs live (worker/playback/urls.ts, PLAY_PREFIX). */
export const PLAYBACK_PATH = '/api/play/';

/** The path and query exactly as sent (before URL normalisation resolves `..` or decodes anything). */
export function rawTarget(url: string): { path: string; query: string } {
  const afterScheme = url.indexOf('//');
  const pathStart = url.indexOf('/', afterScheme + 2);
  const target = pathStart < 0 ? '/' : url.slice(pathStart);
  const hash = target.indexOf('#');
  const clean = hash < 0 ? target : target.slice(0, hash);
  const q = clean.indexOf('?');
  return q < 0 ? { path: clean, query: '' } : { path: clean.slice(0, q), query: clean.slice(q + 1) };
}

/** The API's paths: CORS for configured origins, `Vary: Origin` on every answer. */
export function isApi(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Playback URLs' bytes: never a page, whatever type they name (security-headers.ts). */
export function isPlaybackPath(path: string): boolean {
  return path.startsWith(PLAYBACK_PATH);
}

/** The embed bundle and its files (`/embed/reelgate.js`, `/embed/reelgate.css`, …): one segment under /embed/. */
export function isEmbedAsset(path: string): boolean {
  return /^\/embed\/[^/]+$/.test(path);
}

/** The front doors a request comes in by, as `/admin/metrics` counts requests. */
export const DOORS = ['api', 'playback', 'embed', 'page', 'v2', 'v1', 'admin'] as const;
export type Door = (typeof DOORS)[number];

export function doorOf(path: string): Door {
  if (isPlaybackPath(path)) return 'playback';
  if (isApi(path)) return 'api';
  if (path.startsWith('/embed/') || path === '/oembed') return 'embed';
  if (path.startsWith('/v2/')) return 'v2';
  if (path.startsWith('/v1/') || path === '/v1') return 'v1';
  if (path.startsWith('/admin/') || path === '/admin') return 'admin';
  return 'page';
}
