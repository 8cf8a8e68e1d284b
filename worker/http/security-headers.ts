/**
 * Headers every answer carries. The demo page gets a CSP of its own; a page that states its own policy keeps it (the
 * iframe embeds, which any page may frame: worker/embed/headers.ts); playback answers (`/api/play/…`) one that no
 * document can run under; everything else may not be framed at all.
 */
import { isPlaybackPath } from './paths.ts';

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

const HSTS = 'max-age=31536000; includeSubDomains';

/** What a data answer (JSON, text: neither a page nor playback bytes) carries, after COMMON. */
const DATA: Record<string, string> = {
  'content-security-policy': DATA_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // The embed script and the API are meant to be used by other sites' pages.
  'cross-origin-resource-policy': 'cross-origin',
};

/**
 * The security headers of a data answer, in the order `applySecurityHeaders` sets them: for a response built with them
 * from the start (http/respond.ts), so they need not be set one by one on every answer.
 */
export function dataAnswerSecurityHeaders(https: boolean): Array<[string, string]> {
  return [...Object.entries(COMMON), ...Object.entries(DATA), ...(https ? [['strict-transport-security', HSTS] as [string, string]] : [])];
}

/** `path`: the request's path as the front door read it (request-guard.ts `rawTarget`), so the URL is not parsed again. */
export function applySecurityHeaders(request: Request, response: Response, path = new URL(request.url).pathname): void {
  const headers = response.headers;
  for (const [name, value] of Object.entries(COMMON)) headers.set(name, value);
  const html = (headers.get('content-type') ?? '').includes('text/html');
  if (isPlaybackPath(path)) {
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
    for (const [name, value] of Object.entries(DATA)) headers.set(name, value);
  }
  if (request.url.startsWith('https:')) {
    headers.set('strict-transport-security', HSTS);
  }
}
