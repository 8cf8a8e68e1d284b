/** The rate-limit headers (spec: Limits, rule 2) and `Retry-After`, read defensively: anything unreadable is null. */
import {
  PLATFORM_RATE_LIMIT_HEADER, PLATFORM_RATE_REMAINING_HEADER, RATE_LIMIT_HEADER, RATE_REMAINING_HEADER,
} from '../contract/v2-types.ts';

export interface RateLimitInfo {
  /** Requests per minute allowed (`jw-request-limit`, or the spec's `svc-request-limit`). */
  limit: number | null;
  /** Requests still permitted before the limit is reached (`jw-request-remaining` / `svc-request-remaining`). */
  remaining: number | null;
}

const NON_NEGATIVE_INTEGER = /^\d{1,10}$/;

function readCount(value: string | null): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return NON_NEGATIVE_INTEGER.test(trimmed) ? Number(trimmed) : null;
}

export function parseRateLimit(headers: Headers): RateLimitInfo {
  return {
    limit: readCount(headers.get(PLATFORM_RATE_LIMIT_HEADER)) ?? readCount(headers.get(RATE_LIMIT_HEADER)),
    remaining: readCount(headers.get(PLATFORM_RATE_REMAINING_HEADER)) ?? readCount(headers.get(RATE_REMAINING_HEADER)),
  };
}

/** Longest wait we believe; a larger value (or a date far ahead) is capped rather than trusted blindly. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;
const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * `Retry-After` as whole seconds from `now`: either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). A date in the past
 * means 0. Null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (NON_NEGATIVE_INTEGER.test(trimmed)) return Math.min(Number(trimmed), MAX_RETRY_AFTER_SECONDS);
  if (!HTTP_DATE.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}
