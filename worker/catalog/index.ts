/**
 * The catalog: how feeds, media and players load from the platform (through the budget, each load reserved whole),
 * what of them may leave the worker (projections.ts), and the cache keys they are kept under (keys.ts). Others
 * import from here.
 */
export { baseFeed, feedOf, loadFeed, loadPlaylistHead, type FeedSnapshot, type PlaylistHead } from './feed.ts';
export { checkVariant, isVariant, NO_VARIANT, type FeedVariant } from './feed-variant.ts';
export { cacheKeys, cachePrefixes, variantKey } from './keys.ts';
export { loadPlayer } from './player.ts';
export { allowedCustomParams, isPublished, tracksOf } from './projections.ts';
export { checkMediaFiles, checkOwnFile, deliveryHost, foreignDeliveryFile, deliveryOwner, isOwnFile, type DeliveryHost, type FileClaim } from './delivery-layout.ts';
export { deliveryBase, posterUrl } from './posters.ts';
export { dimension, isHlsType, isPlayableType, renditionLabel, sourceTypeOf } from './source-types.ts';
export { STORYBOARD_LABEL, storyboardFile } from './storyboard.ts';
export { selects, type MemberFacts, type MemberRules } from './member-rules.ts';
