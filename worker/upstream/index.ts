/** The typed upstream clients: Management API v2, Geo Location API, and the helpers around them. */
export * from '../contract/v2-types.ts';
export * from '../contract/geo-types.ts';
export { V2Client, listQuery, type V2ClientOptions, type V2ResponseInfo, type HttpMethod } from './v2-client.ts';
export { V2ApiError, UpstreamRequestError, InvalidArgumentError, GeoApiError, type UpstreamRequestErrorKind } from './errors.ts';
export { parseRateLimit, parseRetryAfter, type RateLimitInfo } from './rate-limit.ts';
export { paginate, DEFAULT_MAX_PAGES, type PaginateOptions } from './paginate.ts';
export { mergeCustomParams, updateCustomParams, type CustomParamChanges } from './custom-params.ts';
export { DEFAULT_TIMEOUT_MS, type CallOptions, type Transport } from './transport.ts';
export { pathSegment, isPlaylistType } from '../contract/path-segments.ts';
export { camelToSnake, errorItemsFromBody, synthesizedError } from './error-body.ts';
export { GeoClient, type GeoClientOptions } from './geo-client.ts';
export { normaliseGeo, normaliseProxy } from './geo-normalise.ts';
export { isoCountry, ISO_ALPHA2_COUNTRIES } from './iso-countries.ts';
export {
  parseIpAddress, requireIpAddress, isPublicAddress, visitorNetwork, InvalidIpAddressError, type ParsedIpAddress,
} from '../http/ip-address.ts';
