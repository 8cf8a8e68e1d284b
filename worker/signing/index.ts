/**
 * Sealed origin: the platform's delivery URLs signed by the worker for sites whose property enforces URL token signing
 * (schemes.ts: the legacy `exp`/`sig` and the `/v2` JWT; site-signer.ts: a site's secret, expiries and which URLs;
 * answers.ts: the URLs of answers about content under no policy). Others import from here.
 */
export { signFeedItem, signMedia } from './answers.ts';
export { isV2Resource, signUrl, unsigned, withoutSignature } from './schemes.ts';
export { FETCH_SECONDS, signerFor, urlSigningUnconfigured, type DeliverySigner } from './site-signer.ts';
