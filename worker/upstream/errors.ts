/**
 * The errors the upstream clients throw. Each says what went wrong without echoing secrets or long upstream text, so a
 * gateway can log them and map them to its own answers (a `V2ApiError` 404 to a 404, an `UpstreamRequestError` to a
 * 502/504) without parsing messages.
 */
import type { V2ErrorItem } from '../contract/v2-types.ts';
import type { RateLimitInfo } from './rate-limit.ts';

/** The upstream answered with a non-2xx status (and not a redirect). */
export class V2ApiError extends Error {
  override name = 'V2ApiError';
  constructor(
    readonly status: number,
    /** From the v2 error body, or one synthesized item when the body was not a v2 error body. */
    readonly errors: V2ErrorItem[],
    /** For 429 (and 503): seconds to wait before retrying, from `Retry-After`; null when absent or unreadable. */
    readonly retryAfterSeconds: number | null,
    /** The rate-limit headers of this response. */
    readonly rateLimit: RateLimitInfo,
    /** `GET /v2/sites/<site>/media/`: which call failed, for logs. */
    readonly request: string = '',
  ) {
    super(`${request ? `${request} ` : ''}answered ${status}: ${errors.map((error) => error.code).join(', ')}`);
  }

  /** True when any error item carries this code. */
  hasCode(code: string): boolean {
    return this.errors.some((error) => error.code === code);
  }
}

export type UpstreamRequestErrorKind = 'timeout' | 'network' | 'redirect' | 'invalid_response';

/** The call did not produce a usable answer: no answer in time, no connection, a redirect, or an unreadable body. */
export class UpstreamRequestError extends Error {
  override name = 'UpstreamRequestError';
  constructor(
    readonly kind: UpstreamRequestErrorKind,
    message: string,
    /** The HTTP status when there was a response (redirects, unreadable bodies). */
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// Defined with the contract (path segments and list queries refuse with it); re-exported for the client's callers.
export { InvalidArgumentError } from '../contract/invalid-argument.ts';

/** The Geo Location API answered with a non-2xx status. Its error bodies are not specified, so only the status is kept. */
export class GeoApiError extends Error {
  override name = 'GeoApiError';
  constructor(
    readonly status: number,
    readonly retryAfterSeconds: number | null,
  ) {
    super(`geo lookup answered ${status}`);
  }
}
