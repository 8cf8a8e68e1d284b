/**
 * The catalog: what the worker reads from the Management API (a playlist's head and rules, players, through the
 * budget, each load reserved whole), what of it may leave the worker (projections.ts), the delivery host's layout,
 * and the cache keys everything is kept under (keys.ts). Others import from here.
 */
export { headCalls, loadPlaylistHead, type HeadLoadOptions, type PlaylistHead } from './playlist-head.ts';
export { checkVariant, isVariant, needsVariant, NO_VARIANT, type FeedVariant } from './feed-variant.ts';
export { cacheKeys, cachePrefixes, variantKey } from './keys.ts';
export { loadPlayer } from './player.ts';
export { allowedCustomParams, isPublished, tracksOf } from './projections.ts';
export { checkMediaFiles, checkOwnFile, deliveryHost, foreignDeliveryFile, deliveryOwner, isOwnFile, type DeliveryHost, type FileClaim } from './delivery-layout.ts';
export { deliveryBase, posterUrl } from './posters.ts';
export { dimension, isHlsType, isPlayableType, renditionLabel, sourceTypeOf } from './source-types.ts';
export { STORYBOARD_LABEL, storyboardFile } from './storyboard.ts';
export { memberRulesOf, selects, type MemberFacts, type MemberRules } from './member-rules.ts';
