/**
 * The platform's Delivery API behind the worker: its client (client.ts), answers (answers.ts) and meter (meter.ts), and
 * what is loaded from it: media answers (media.ts) and feeds (feed.ts).
 */
export { deliveryRefused, deliveryUnconfigured, deliveryUrl, fetchDelivery, reportRefusal, type DeliveryKind, type DeliveryRequest } from './client.ts';
export { deliveryAnswerInvalid, readDeliveryFeed, tagsOf } from './answers.ts';
export { DeliveryMeter, deliveryBusy, deliveryMeter } from './meter.ts';
export { feedItemFromDelivery, loadMedia, mediaFromDelivery, MEDIA_MANAGEMENT_CALLS } from './media.ts';
export { baseFeed, feedOf, loadFeed, type FeedLoadOptions, type FeedSnapshot } from './feed.ts';
