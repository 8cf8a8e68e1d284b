/**
 * The platform's delivery side: its base, and where a media's poster is (`<delivery>/v2/media/<media_id>/poster.jpg
 * ?width=<w>`, what the Delivery API's `image` and `images[]` name; the gateway's signing check asks for one).
 *
 * The delivery base is `DELIVERY_BASE_URL` (the platform's CDN; the sandbox's own address in development). Without it
 * answers carry no poster: an operator sees `poster: null`, never a guessed host.
 */

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
