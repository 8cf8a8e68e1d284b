/** The platform's Delivery API behind the worker: its client (client.ts), answers (answers.ts) and meter (meter.ts). */
export { deliveryRefused, deliveryUnconfigured, deliveryUrl, fetchDelivery, reportRefusal, type DeliveryKind, type DeliveryRequest } from './client.ts';
export { deliveryAnswerInvalid, readDeliveryFeed, tagsOf } from './answers.ts';
export { DeliveryMeter, deliveryBusy, deliveryMeter } from './meter.ts';
export { loadMedia, mediaFromDelivery, MEDIA_MANAGEMENT_CALLS } from './media.ts';
