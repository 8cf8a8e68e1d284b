/**
 * Posters from the platform's delivery side, not its Management API: every media has a poster image at
 * `<delivery>/v2/media/<media_id>/poster.jpg?width=<w>` (the Delivery API's `image` and `images[]`), in the widths the
 * platform resizes to.
 * Building the URLs costs no upstream call, so a feed of fifty items spends nothing on its pictures (reading each
 * media's thumbnails through the Management API would cost a call per item against the 60-a-minute budget).
 *
 * The delivery base is `DELIVERY_BASE_URL` (the platform's CDN; the sandbox's own address in development). Without it
 * answers carry no poster: an operator sees `poster: null`, never a guessed host.
 */

/** The widths the platform's delivery side serves a poster in. */
export const POSTER_WIDTHS = [320, 480, 640, 720, 1280, 1920] as const;
/** The width of the single `thumbnail`/`poster` URL: a card or an inline player's frame. */
export const DEFAULT_POSTER_WIDTH = 720;

export interface PosterSet {
  /** The default-width poster. */
  url: string;
  /** Every width, narrowest first (a `srcset`). */
  sizes: Array<{ url: string; width: number }>;
}

/** The delivery base as configured: an http(s) origin and path prefix without a trailing slash, or null. */
export function deliveryBase(configured: string | undefined): string | null {
  if (!configured) return null;
  try {
    const url = new URL(configured);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

export function posterUrl(base: string, mediaId: string, width: number): string {
  return `${base}/v2/media/${encodeURIComponent(mediaId)}/poster.jpg?width=${width}`;
}

export function posterSet(base: string | null, mediaId: string): PosterSet | null {
  if (base === null) return null;
  return {
    url: posterUrl(base, mediaId, DEFAULT_POSTER_WIDTH),
    sizes: POSTER_WIDTHS.map((width) => ({ url: posterUrl(base, mediaId, width), width })),
  };
}
