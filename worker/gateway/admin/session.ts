/**
 * `/admin/session`: the console's sign-in (POST the admin token, get a session cookie and its CSRF token), the
 * session's state (GET), and signing out (DELETE). Sign-ins are limited per address (sessions.ts `SignInLimiter`).
 */
import type { Env } from '../../env.ts';
import type { RequestContext } from '../../http/context.ts';
import { errorBody } from '../../http/errors.ts';
import { noStoreJson } from '../../http/respond.ts';
import { gatewayDb } from '../db.ts';
import { invalid, methodNotAllowed, unauthorized } from '../errors.ts';
import { adminDisabled, requireCsrf, tokensEqual } from './auth.ts';
import { iso, onlyParams, readJson } from './request.ts';
import {
  clearedSessionCookie, createSession, csrfRefused, fromOwnOrigin, readSession, sessionCookie, sessionExpired,
  signInAddressHash, SignInLimiter,
} from './sessions.ts';

const MAX_TOKEN_LENGTH = 1024;

async function signIn(request: Request, env: Env, adminToken: string): Promise<Response> {
  if (!fromOwnOrigin(request)) throw csrfRefused('Sign in from the console on the worker\'s own origin.');
  const body = await readJson(request);
  const token = (body as { token?: unknown } | null)?.token;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).some((k) => k !== 'token')
    || typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
    throw invalid('The body must be {"token":"<ADMIN_TOKEN>"} and nothing else.');
  }
  const limiter = new SignInLimiter(gatewayDb(env));
  // The connection's own address: no header (a render server's visitor, DEV_MODE's stand-in) picks whose count this is.
  const address = await signInAddressHash(request, env);
  const attempt = await limiter.attempt(address);
  if (!attempt.allowed) {
    // Built here: the gateway's error shape would name every 429 the platform's rate_limit_exceeded.
    return noStoreJson(errorBody('rate_limited', 'Too many failed sign-ins from this address: every sign-in is refused '
      + `for ${attempt.retryAfterSeconds} more seconds.`), 429, { 'retry-after': String(attempt.retryAfterSeconds) });
  }
  if (!(await tokensEqual(token, adminToken))) throw unauthorized('The admin token is wrong.');
  await limiter.succeeded(address);
  const session = await createSession(adminToken);
  return noStoreJson({ expires_at: iso(session.expiresAt), csrf: session.csrf }, 201, { 'set-cookie': sessionCookie(session) });
}

export async function sessionRoute({ request, env }: RequestContext): Promise<Response> {
  const adminToken = env.ADMIN_TOKEN;
  if (!adminToken) throw adminDisabled();
  onlyParams(new URL(request.url), []);
  if (request.method === 'POST') return signIn(request, env, adminToken);
  if (request.method === 'GET' || request.method === 'HEAD') {
    const reading = await readSession(request, adminToken);
    if (reading.state === 'expired') throw sessionExpired();
    if (reading.state !== 'valid') throw unauthorized('No admin session: sign in with POST /admin/session.');
    return noStoreJson({ expires_at: iso(reading.session.expiresAt), csrf: reading.session.csrf });
  }
  if (request.method === 'DELETE') {
    // A live session is ended only by its console (CSRF); an ended or foreign cookie is simply cleared.
    const reading = await readSession(request, adminToken);
    if (reading.state === 'valid') await requireCsrf(request, adminToken, reading.session);
    return new Response(null, { status: 204, headers: { 'set-cookie': clearedSessionCookie(), 'cache-control': 'no-store' } });
  }
  throw methodNotAllowed(['GET', 'POST', 'DELETE']);
}
