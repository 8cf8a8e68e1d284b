/**
 * Gateway refusals in the v2 error format `{"errors":[{code, description}]}`. Codes are the gateway's own
 * (`unauthorized`, `forbidden`, `idempotency_key_reused`...), so this module does not widen the public API's code list.
 * Descriptions are fixed text: never an exception message, a key or the platform secret.
 */
import { ApiError, errorBody } from '../errors.ts';

/**
 * The platform's code for a call over its rate limit, the one the sandbox (built to the spec) answers its 429 with.
 * Every 429 of the gateway uses it, and carries `Retry-After`.
 */
export const RATE_LIMIT_CODE = 'rate_limit_exceeded';
/** A 429 without a wait of its own (the platform's, or an unexpected one) is taken as a whole window. */
export const DEFAULT_RETRY_AFTER = '60';

export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const unauthorized = (description = 'A valid reelgate access key is required (Authorization: Bearer rg_...).') =>
  new GatewayError(401, 'unauthorized', description, { 'www-authenticate': 'Bearer realm="reelgate"' });
export const forbidden = (description: string) => new GatewayError(403, 'forbidden', description);
export const invalid = (description: string, status = 400, code = 'invalid_request') =>
  new GatewayError(status, code, description);
export const gatewayNotFound = (description = 'No such route.') => new GatewayError(404, 'not_found', description);
export const methodNotAllowed = (allow: readonly string[]) =>
  new GatewayError(405, 'method_not_allowed', `This route accepts ${allow.join(', ')}.`, { allow: allow.join(', ') });

export function jsonResponse(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * D1 without the gateway's tables or columns (migrations not applied, or not the latest) is an operator's mistake: say
 * what to do.
 */
export function schemaMissing(error: unknown): GatewayError | null {
  if (!(error instanceof Error) || !/no such table|no such column|has no column named/i.test(error.message)) return null;
  return new GatewayError(503, 'gateway_unavailable',
    'The gateway database has no schema yet: run `wrangler d1 migrations apply reelgate-gateway` (--local or --remote).');
}

/** The answer for anything a gateway handler throws; unknown errors become a generic 500 without details. */
export function gatewayErrorResponse(thrown: unknown): Response {
  const error = schemaMissing(thrown) ?? thrown;
  if (error instanceof GatewayError) {
    return jsonResponse(errorBody(error.code, error.description), error.status, error.headers);
  }
  // The edge worker's own errors (budget refusals, upstream failures) keep their status, code and Retry-After.
  if (error instanceof ApiError) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds != null) headers['retry-after'] = String(error.retryAfterSeconds);
    if (error.status === 429) headers['retry-after'] ??= DEFAULT_RETRY_AFTER;
    const code = error.status === 429 ? RATE_LIMIT_CODE : error.code;
    return jsonResponse(errorBody(code, error.description), error.status, headers);
  }
  console.error('reelgate gateway: unexpected error', error instanceof Error ? error.name : typeof error);
  return jsonResponse(errorBody('internal_error', 'Something went wrong on our side.'), 500);
}
