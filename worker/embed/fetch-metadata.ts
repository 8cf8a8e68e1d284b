/**
 * What a page on another site could still learn of a visitor's geo decision from an embed page or `/oembed` without
 * reading either (no CORS: cors.ts): whether its load succeeded. A page loads the URL as a subresource (`<object>`,
 * `<link rel="prefetch">`, …) and watches `load` against `error`: 200 for an allowed visitor, 451 for a refused one.
 * Browsers say how a request was made (Fetch Metadata, `Sec-Fetch-*`), so such loads get one answer whatever the
 * decision, before it is made: an embed page only to a frame or a navigation, `/oembed` (made for a CMS's server, which
 * sends no such header) only to its own origin's pages, a navigation, or no browser at all. A browser that sends no
 * Fetch Metadata (Safari before 16.4) is answered as a server: worker/docs/geo-and-playback.md, "Geo-bound playback",
 * threat model.
 */
import { ApiError } from '../http/errors.ts';

/** How a frame or a page asks for a document: its status reaches no other page. */
const FRAMED: ReadonlySet<string> = new Set(['iframe', 'frame', 'document']);

/** The one answer to a load that is not a frame: the same for every visitor, decided before any policy. */
export function notFramed(): ApiError {
  return new ApiError(403, 'not_framed', 'An embed page is shown in an iframe; it cannot be loaded this way.');
}

/** Whether an embed page may be answered to this request (a frame, a navigation, or no browser's Fetch Metadata). */
export function framedOrUnknown(request: Request): boolean {
  const dest = request.headers.get('sec-fetch-dest');
  return dest === null || FRAMED.has(dest);
}

/**
 * Whether `/oembed` may be answered: no browser, its own origin's page, the address bar, or a top-level navigation.
 * Not an `<object>` or `<embed>`: those are navigations too (`Sec-Fetch-Mode: navigate`), whose load events a page sees.
 */
export function ownOrNoBrowser(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site === null || site === 'same-origin' || site === 'none') return true;
  return request.headers.get('sec-fetch-mode') === 'navigate' && request.headers.get('sec-fetch-dest') === 'document';
}

export function crossSiteOembed(): ApiError {
  return new ApiError(403, 'origin_not_allowed', 'oEmbed is answered to servers (a CMS) and to this service\'s own pages, '
    + 'not to pages of other sites.');
}
