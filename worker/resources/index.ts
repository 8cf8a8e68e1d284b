/**
 * The public API's resources, each declared once (media, player, feed, geo, gate) and run by one pipeline
 * (pipeline.ts: input, policies, load through the cache and the budget, presentation, answer), with one table of how
 * long each kind may be cached (cache-caps.ts). Others import from here.
 */
export { CACHE_CAPS, cacheControlFor, type PageKind, type ResourceKind } from './cache-caps.ts';
export { feed, VARIANT_HEADER, type FeedInput } from './feed.ts';
export { gate, geo } from './geo.ts';
export { media, type MediaInput } from './media.ts';
export { player } from './player.ts';
export { loadInput, resolveInput, serve, type Presented, type ResourceDeclaration } from './pipeline.ts';
