/**
 * Headers every answer carries. The demo page gets a CSP of its own; the iframe embeds (`/embed/<site>/…`) one that lets
 * any page frame them; playback answers (`/api/play/…`) one that no document can run under; everything else may not be
 * framed at all.
 */
import { FRAME_SCRIPT_HASH } from './embed/frame-script.ts';
import { isEmbedPagePath } from './embed/targets.ts';

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
const PAGE_CSP = [
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
/**
 * An iframe embed: the demo page's rules, plus its one inline script (by hash) and inline style, and framable by any
 * page, since an embed is made to be pasted anywhere. What a visitor may see is decided by the geo policies for that visitor, never
 * by the page that frames it (README, "Embedding without scripts").
 */
const EMBED_CSP = PAGE_CSP.replace("script-src 'self'", `script-src 'self' ${FRAME_SCRIPT_HASH}`)
  // The embed page's own few rules sit in a <style> of the worker's making.
  .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  .replace("frame-ancestors 'self'", 'frame-ancestors *');
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
/**
 * Playback answers: bytes a platform writer chose, on this origin (worker/playback/deliver.ts). Whatever their type,
 * opened on their own they are a sandboxed document (an opaque origin, no script, no plugin, no form) that may load
 * nothing and be framed by no page. A media element, an `<img>` and a `<track>` ignore a response's CSP, so players
 * are unaffected.
 */
export const PLAYBACK_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

export function applySecurityHeaders(request: Request, response: Response): void {
  const headers = response.headers;
  for (const [name, value] of Object.entries(COMMON)) headers.set(name, value);
  const path = new URL(request.url).pathname;
  const html = (headers.get('content-type') ?? '').includes('text/html');
  if (path.startsWith(PLAYBACK_PATH)) {
    // Before any content-type rule: a playback answer is never a page, whatever type it names.
    headers.set('content-security-policy', PLAYBACK_CSP);
    headers.set('x-frame-options', 'DENY');
    headers.set('referrer-policy', 'no-referrer');
    // Players on other sites' pages load these bytes (media, posters, captions).
    headers.set('cross-origin-resource-policy', 'cross-origin');
  } else if (html && isEmbedPagePath(path)) {
    headers.set('content-security-policy', EMBED_CSP);
    // frame-ancestors decides; X-Frame-Options has no "any origin" value, so it must be absent.
    headers.delete('x-frame-options');
    headers.set('referrer-policy', 'strict-origin-when-cross-origin');
    // Framable from pages that require CORP of their subresources (Cross-Origin-Embedder-Policy).
    headers.set('cross-origin-resource-policy', 'cross-origin');
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
  if (new URL(request.url).protocol === 'https:') {
    headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
}
