/**
 * The admin API's guard: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time, or the operator console's
 * session cookie (sessions.ts). Both sides of a token are hashed first so the comparison runs over equal lengths
 * whatever the caller sends; `timingSafeEqual` then leaks nothing of the token through timing. Without an
 * `ADMIN_TOKEN` the admin API is off.
 *
 * A request with an `Authorization` header (or without a session cookie) is judged by its bearer token alone, exactly
 * as before sessions existed. One that comes with the cookie only is a browser's: the session must be live, and every
 * method but GET and HEAD must carry the session's `X-Reelgate-CSRF` and come from the worker's own origin (403
 * `csrf_refused`), so no other site can make the operator's browser act.
 */
import { bearerToken } from '../access-keys.ts';
import { ApiError } from '../../http/errors.ts';
import {
  csrfMatches, csrfRefused, fromOwnOrigin, hasSessionCookie, readSession, sessionExpired, type AdminSession,
} from './sessions.ts';
import { unauthorized } from '../errors.ts';

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
}

export async function tokensEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** Who passed the guard: the bearer of the token, or a signed-in console. */
export type AdminCaller = { via: 'bearer' } | { via: 'session'; session: AdminSession };

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export const adminDisabled = () => new ApiError(403, 'admin_disabled',
  'The admin API is disabled: set the ADMIN_TOKEN secret (wrangler secret put ADMIN_TOKEN) to enable it.');

/**
 * A write made with the session cookie: the session's CSRF value, from the worker's own origin. Throws 403
 * `csrf_refused` otherwise.
 */
export async function requireCsrf(request: Request, adminToken: string, session: AdminSession): Promise<void> {
  if (!fromOwnOrigin(request)) {
    throw csrfRefused('This request comes from another site (Origin or Sec-Fetch-Site); the console acts from its own origin only.');
  }
  if (!(await csrfMatches(request, adminToken, session))) {
    throw csrfRefused('A write with the session cookie needs the X-Reelgate-CSRF header of the session (GET /admin/session).');
  }
}

/** Throws the refusal unless the request carries the admin token, or a live session (and, for a write, its CSRF). */
export async function requireAdmin(request: Request, adminToken: string | undefined): Promise<AdminCaller> {
  if (!adminToken) throw adminDisabled();
  if (!request.headers.has('authorization') && hasSessionCookie(request)) {
    const reading = await readSession(request, adminToken);
    if (reading.state === 'expired') throw sessionExpired();
    if (reading.state !== 'valid') throw unauthorized('The admin session is not valid: sign in again with the admin token.');
    if (!SAFE_METHODS.has(request.method)) await requireCsrf(request, adminToken, reading.session);
    return { via: 'session', session: reading.session };
  }
  const given = bearerToken(request);
  if (given === null || !(await tokensEqual(given, adminToken))) {
    throw unauthorized('The admin token is missing or wrong (Authorization: Bearer <ADMIN_TOKEN>).');
  }
  return { via: 'bearer' };
}
