/**
 * Every error a client sees is the v2 body `{"errors":[{"code","description"}]}`. Handlers throw `ApiError`; the
 * router's catch turns it (or anything else, as a generic 500) into a response. Descriptions are ours, never an
 * exception message or upstream text.
 */
import type { ErrorResponse } from './contract/public-api.ts';

export type ErrorCode =
  | 'not_found'
  | 'invalid_request'
  | 'method_not_allowed'
  | 'origin_not_allowed'
  | 'rate_limited'
  | 'geo_blocked'
  | 'playback_denied'
  | 'playback_expired'
  | 'playback_invalid'
  | 'upstream_unavailable'
  | 'not_implemented'
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly description: string,
    /** Seconds, for 429 and 503 answers. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(description);
    this.name = 'ApiError';
  }
}

export const notFound = (what = 'No such resource.') => new ApiError(404, 'not_found', what);
export const invalidRequest = (why: string) => new ApiError(400, 'invalid_request', why);
export const rateLimited = (retryAfterSeconds: number, why = 'Too many requests; retry later.') =>
  new ApiError(429, 'rate_limited', why, Math.max(1, Math.ceil(retryAfterSeconds)));
export const geoBlocked = () =>
  new ApiError(451, 'geo_blocked', 'This content is not available in your region.');
/** A playback URL refused: its media's policies refuse the caller now (451, as for the JSON that handed it out). */
export const playbackDenied = () =>
  new ApiError(451, 'playback_denied', 'This content is not available in your region.');
/** Past its expiry (or its file is no longer what the media offers): fetch the media again for fresh URLs. */
export const playbackExpired = (why = 'This playback URL has expired; load the media again for a fresh one.') =>
  new ApiError(403, 'playback_expired', why);
/** Not a URL the worker signed, altered, or used for a file or network it does not open. */
export const playbackInvalid = (why = 'This playback URL is not valid.') => new ApiError(403, 'playback_invalid', why);
export const upstreamUnavailable = (status: 502 | 504 = 502) =>
  new ApiError(status, 'upstream_unavailable',
    status === 504 ? 'The video platform did not answer in time.' : 'The video platform could not be reached.');

export function errorBody(code: string, description: string): ErrorResponse {
  return { errors: [{ code, description }] };
}

/** The response for any thrown value. Unknown errors become a generic 500 and are logged without their details' secrets. */
export function errorResponse(error: unknown): Response {
  const known = error instanceof ApiError ? error : null;
  if (!known) {
    // Log the type and message only: upstream/client errors from our own code never carry secrets, but stay terse.
    console.error('reelgate: unexpected error', error instanceof Error ? error.name : typeof error);
  }
  const status = known?.status ?? 500;
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  if (known?.retryAfterSeconds != null) headers.set('retry-after', String(known.retryAfterSeconds));
  const body = known
    ? errorBody(known.code, known.description)
    : errorBody('internal_error', 'Something went wrong on our side.');
  return new Response(JSON.stringify(body), { status, headers });
}
