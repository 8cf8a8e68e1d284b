/**
 * Reading a request's target without parsing a URL, and the classes of path the front door treats apart: the API
 * (CORS, the abuse limit) and its playback bytes (their own security headers). Leaf module: imports nothing.
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
