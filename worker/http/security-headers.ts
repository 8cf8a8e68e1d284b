/**
 * Headers every answer carries. The demo page gets a CSP of its own; a page that states its own policy keeps it (the
 * iframe embeds, which any page may frame: worker/embed/headers.ts); playback answers (`/api/play/…`) one that no
 * document can run under; everything else may not be framed at all.
 */

/** Where playback URLs live (worker/playback/urls.ts, PLAY_PREFIX). */
const PLAYBACK_PATH = '/api/play/';

const COMMON: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The demo page: its own scripts and stylesheets only (the elements' styles are constructed stylesheets, which CSP does
 * not govern, and they write no style attributes); media and posters from the platform's delivery hosts.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  // hls.js fetches HLS playlists and segments, and the player its chapters and storyboards, from the delivery hosts.
  "connect-src 'self' https: http:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
/**
 * Playback answers: bytes a platform writer chose, on this origin (worker/playback/deliver.ts). Whatever their type,
 * opened on their own they are a sandboxed document (an opaque origin, no script, no plugin, no form) that may load
 * nothing and be framed by no page. A media element, an `<img>` and a `<track>` ignore a response's CSP, so players
 * are unaffected.
 */
export const PLAYBACK_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

/** `path`: the request's path as the front door read it (request-guard.ts `rawTarget`), so the URL is not parsed again. */
export function applySecurityHeaders(request: Request, response: Response, path = new URL(request.url).pathname): void {
  const headers = response.headers;
  for (const [name, value] of Object.entries(COMMON)) headers.set(name, value);
  const html = (headers.get('content-type') ?? '').includes('text/html');
  if (path.startsWith(PLAYBACK_PATH)) {
    // Before any content-type rule: a playback answer is never a page, whatever type it names.
    headers.set('content-security-policy', PLAYBACK_CSP);
    headers.set('x-frame-options', 'DENY');
    headers.set('referrer-policy', 'no-referrer');
    // Players on other sites' pages load these bytes (media, posters, captions).
    headers.set('cross-origin-resource-policy', 'cross-origin');
  } else if (html && headers.has('content-security-policy')) {
    // A page of the worker's making that states its own policy and framing (embed/headers.ts) keeps them.
  } else if (html) {
    headers.set('content-security-policy', PAGE_CSP);
    headers.set('x-frame-options', 'SAMEORIGIN');
    headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  } else {
    headers.set('content-security-policy', DATA_CSP);
    headers.set('x-frame-options', 'DENY');
    headers.set('referrer-policy', 'no-referrer');
    // The embed script and the API are meant to be used by other sites' pages.
    headers.set('cross-origin-resource-policy', 'cross-origin');
  }
  if (request.url.startsWith('https:')) {
    headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
}
