/**
 * Gateway refusals, `ApiError`s with the gateway's own codes (`unauthorized`, `forbidden`, `idempotency_key_reused`...),
 * and how `/v2` and `/admin` word them: the v2 error format `{"errors":[{code, description}]}`. Descriptions are fixed
 * text: never an exception message, a key or the platform secret.
 */
import { ApiError, errorBody, type ErrorShape } from '../http/errors.ts';

/**
 * The platform's code for a call over its rate limit, the one the sandbox (built to the spec) answers its 429 with.
 * Every 429 of the gateway uses it, and carries `Retry-After`.
 */
export const RATE_LIMIT_CODE = 'rate_limit_exceeded';
/** A 429 without a wait of its own (the platform's, or an unexpected one) is taken as a whole window. */
export const DEFAULT_RETRY_AFTER = '60';

export const unauthorized = (description = 'A valid reelgate access key is required (Authorization: Bearer rg_...).') =>
  new ApiError(401, 'unauthorized', description, null, { 'www-authenticate': 'Bearer realm="reelgate"' });
export const forbidden = (description: string) => new ApiError(403, 'forbidden', description);
export const invalid = (description: string, status = 400, code = 'invalid_request') =>
  new ApiError(status, code, description);
export const gatewayNotFound = (description = 'No such route.') => new ApiError(404, 'not_found', description);
export const methodNotAllowed = (allow: readonly string[]) =>
  new ApiError(405, 'method_not_allowed', `This route accepts ${allow.join(', ')}.`, null, { allow: allow.join(', ') });

/**
 * D1 without the gateway's tables or columns (migrations not applied, or not the latest) is an operator's mistake: say
 * what to do.
 */
export function schemaMissing(error: unknown): ApiError | null {
  if (!(error instanceof Error) || !/no such table|no such column|has no column named/i.test(error.message)) return null;
  return new ApiError(503, 'gateway_unavailable',
    'The gateway database has no schema yet: run `wrangler d1 migrations apply reelgate-gateway` (--local or --remote).');
}

/** `/v2` and `/admin`: the v2 body; the edge worker's own errors (budget refusals, upstream failures) keep theirs. */
export const V2_ERRORS: ErrorShape = {
  body: errorBody, known: schemaMissing, rateLimit: { code: RATE_LIMIT_CODE, retryAfter: DEFAULT_RETRY_AFTER },
};
