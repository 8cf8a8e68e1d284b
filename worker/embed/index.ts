/**
 * Embedding without scripts: the iframe embed pages (page-route.ts) and oEmbed (oembed.ts), decided by the same
 * resources as the API (resolve.ts), with their own security headers (headers.ts). Others import from here.
 */
export { embedMediaRoute, embedPlaylistRoute } from './page-route.ts';
export { oembedRoute } from './oembed.ts';
export { escapeHtml } from './html.ts';
