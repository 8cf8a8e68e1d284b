/**
 * The iframe embeds' own security headers: the demo page's CSP (http/security-headers.ts), plus the page's one inline
 * script (by hash) and inline style, and framable by any page, since an embed is made to be pasted anywhere. What a
 * visitor may see is decided by the geo policies for that visitor, never by the page that frames it
 * (worker/docs/embedding-without-scripts.md). Set on every embed page, refusals included; the front door keeps them.
 */
import { PAGE_CSP } from '../http/security-headers.ts';
import { FRAME_SCRIPT_HASH } from './frame-script.ts';

const EMBED_CSP = PAGE_CSP.replace("script-src 'self'", `script-src 'self' ${FRAME_SCRIPT_HASH}`)
  // The embed page's own few rules sit in a <style> of the worker's making.
  .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  .replace("frame-ancestors 'self'", 'frame-ancestors *');

export function setEmbedPageHeaders(headers: Headers): void {
  headers.set('content-security-policy', EMBED_CSP);
  // frame-ancestors decides; X-Frame-Options has no "any origin" value, so it must be absent (the front door sets none
  // on a page with its own policy).
  headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  // Framable from pages that require CORP of their subresources (Cross-Origin-Embedder-Policy).
  headers.set('cross-origin-resource-policy', 'cross-origin');
}
