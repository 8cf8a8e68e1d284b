/** The gateway's D1 database (access keys, idempotency records, uploads, audit), or 503 when it is not bound. */
import type { Env } from '../env.ts';
import { ApiError } from '../http/errors.ts';

export function gatewayDb(env: Env): D1Database {
  if (!env.GATEWAY_DB) {
    throw new ApiError(503, 'gateway_unavailable', 'The gateway is not configured (no GATEWAY_DB binding).');
  }
  return env.GATEWAY_DB;
}
