/**
 * One error type for every front door: handlers throw `ApiError`; the catch turns it (or anything else, as a generic
 * 500) into a response in the shape of the mount: the v2 body `{"errors":[{"code","description"}]}`, or v1's
 * object. Descriptions are ours, never an exception message or upstream text.
 */
import type { ErrorResponse } from '../contract/public-api.ts';
import { noStoreJson } from './respond.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    /** Seconds, for 429 and 503 answers. */
    readonly retryAfterSeconds: number | null = null,
    /** Headers the refusal itself carries (`Allow`, `WWW-Authenticate`). */
    readonly headers: Readonly<Record<string, string>> = {},
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

/**
 * How a mount words its refusals: the body of one error (the v2 body, or v1's object), its own errors made `ApiError`s
 * (a missing D1 schema, a parameter the v1 helpers refused), and the gateway's word for every 429: the platform's code,
 * with a whole window as `Retry-After` when no wait is known.
 */
export interface ErrorShape {
  body: (code: string, description: string) => unknown;
  known?: (thrown: unknown) => ApiError | null;
  rateLimit?: { code: string; retryAfter: string };
}
export const PUBLIC_ERRORS: ErrorShape = { body: errorBody };

/** The response for any thrown value. Unknown errors become a generic 500 and are logged by type only. */
export function errorResponse(thrown: unknown, shape: ErrorShape = PUBLIC_ERRORS): Response {
  const error = shape.known?.(thrown) ?? thrown;
  if (!(error instanceof ApiError)) {
    console.error('reelgate: unexpected error', error instanceof Error ? error.name : typeof error);
    return noStoreJson(shape.body('internal_error', 'Something went wrong on our side.'), 500);
  }
  const headers = { ...error.headers };
  if (error.retryAfterSeconds != null) headers['retry-after'] = String(error.retryAfterSeconds);
  const limit = error.status === 429 ? shape.rateLimit : undefined;
  if (limit) headers['retry-after'] ??= limit.retryAfter;
  return noStoreJson(shape.body(limit?.code ?? error.code, error.description), error.status, headers);
}
