/**
 * The admin API's guard: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Both sides are hashed first
 * so the comparison runs over equal lengths whatever the caller sends; `timingSafeEqual` then leaks nothing of the
 * token through timing. Without an `ADMIN_TOKEN` the admin API is off.
 */
import { bearerToken } from './access-keys.ts';
import { ApiError } from '../http/errors.ts';
import { unauthorized } from './errors.ts';

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
}

export async function tokensEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** Throws the refusal unless the request carries the admin token. */
export async function requireAdmin(request: Request, adminToken: string | undefined): Promise<void> {
  if (!adminToken) {
    throw new ApiError(403, 'admin_disabled',
      'The admin API is disabled: set the ADMIN_TOKEN secret (wrangler secret put ADMIN_TOKEN) to enable it.');
  }
  const given = bearerToken(request);
  if (given === null || !(await tokensEqual(given, adminToken))) {
    throw unauthorized('The admin token is missing or wrong (Authorization: Bearer <ADMIN_TOKEN>).');
  }
}
