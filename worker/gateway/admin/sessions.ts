/**
 * The operator console's sign-in: `ADMIN_TOKEN` exchanged once for a session cookie, so the browser never keeps the
 * token (worker/README.md, "Operator console").
 * - The cookie `__Host-reelgate_admin` is `base64url(JSON {exp, nonce})` + `.` + base64url(HMAC-SHA256 of that text).
 *   Nothing is stored: the HMAC key is derived from the token, HMAC(ADMIN_TOKEN, "reelgate admin session v1"), so
 *   rotating the token ends every session at once. It lives `SESSION_SECONDS` (no renewal), `Path=/; HttpOnly; Secure;
 *   SameSite=Strict`, no Domain. The `__Host-` prefix makes browsers refuse the name from anywhere but this host itself
 *   (never with Domain=, never on another Path), so a sibling subdomain cannot plant cookies of the name beside ours;
 *   and every cookie of the name a request carries is tried (up to `MAX_VERIFIED_COOKIES` that could be ours), the
 *   session valid when any one verifies, so duplicates sent first cannot end it either.
 * - The CSRF value is HMAC(cookie value) under a second derived key: bound to the session, never stored, and readable
 *   only by a page that may read the session's answers (`GET /admin/session`). Every write made with the cookie carries
 *   it in `X-Reelgate-CSRF` and comes from the worker's own origin (auth.ts).
 * - Failed sign-ins are counted per address (an IPv6 /64 counts as one) and per window in D1, the address as the salted
 *   hash every other counter of the worker keys on (http/visitor.ts): `SIGN_IN_MAX_FAILURES` per window, then every
 *   attempt, the right token included, is refused until the window ends. The address is the connection's own
 *   (`CF-Connecting-IP`), never one a header names: not the render token's visitor, not DEV_MODE's stand-in. Otherwise
 *   a holder of the render token could name a new visitor for every guess at ADMIN_TOKEN, or name the operator's
 *   address six times and lock the operator out.
 * Signatures are checked with `crypto.subtle.verify`, which compares in constant time.
 */
import type { Env } from '../../env.ts';
import { ApiError } from '../../http/errors.ts';
import { connectionNetwork, hashAddress } from '../../http/visitor.ts';
import { base64url } from '../access-keys.ts';

/**
 * One name, on http:// too: the cookie is always Secure (which `__Host-` requires), and the browsers the console is
 * made for keep Secure and `__Host-` cookies on a loopback origin (wrangler dev's http://127.0.0.1, http://localhost).
 */
export const SESSION_COOKIE = '__Host-reelgate_admin';
export const CSRF_HEADER = 'x-reelgate-csrf';
export const SESSION_SECONDS = 1800;
export const SIGN_IN_WINDOW_SECONDS = 600;
export const SIGN_IN_MAX_FAILURES = 5;

const SESSION_LABEL = 'reelgate admin session v1';
const CSRF_LABEL = 'reelgate admin csrf v1';
/** A cookie value of ours is about 90 characters; anything far longer is not one. */
const MAX_COOKIE_VALUE = 512;
const COOKIE_VALUE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,128}$/;
/**
 * Cookies of the name whose signature is checked per request, at most. Values that cannot be ours are passed over
 * without any HMAC, so only well-shaped duplicates count; a browser sends one (`__Host-`), this bounds what a forged
 * header may cost.
 */
const MAX_VERIFIED_COOKIES = 32;

const encoder = new TextEncoder();

/** Derived keys by label, for the token they were derived from: the key itself, never an import's promise. */
const derived = new Map<string, { token: string; key: CryptoKey }>();

async function derivedKey(adminToken: string, label: string): Promise<CryptoKey> {
  const known = derived.get(label);
  if (known?.token === adminToken) return known.key;
  const root = await crypto.subtle.importKey('raw', encoder.encode(adminToken), { name: 'HMAC', hash: 'SHA-256' }, false,
    ['sign']);
  const material = await crypto.subtle.sign('HMAC', root, encoder.encode(label));
  const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  derived.set(label, { token: adminToken, key });
  return key;
}

function fromBase64url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  try {
    const bytes = Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    // Only the one spelling of those bytes: no second cookie value that verifies as the same.
    return base64url(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}

/** A signed-in session: the cookie's value, when it ends, and the CSRF value bound to it. */
export interface AdminSession {
  value: string;
  /** Epoch seconds. */
  expiresAt: number;
  csrf: string;
}

/** The CSRF value of a session: HMAC of its cookie value under the CSRF key. */
export async function csrfFor(adminToken: string, value: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await derivedKey(adminToken, CSRF_LABEL), encoder.encode(value));
  return base64url(new Uint8Array(mac));
}

/** A new session, ending `SESSION_SECONDS` after `nowMs` (tests pass a past time to make an expired one). */
export async function createSession(adminToken: string, nowMs = Date.now()): Promise<AdminSession> {
  const expiresAt = Math.floor(nowMs / 1000) + SESSION_SECONDS;
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const payload = base64url(encoder.encode(JSON.stringify({ exp: expiresAt, nonce })));
  const mac = await crypto.subtle.sign('HMAC', await derivedKey(adminToken, SESSION_LABEL), encoder.encode(payload));
  const value = `${payload}.${base64url(new Uint8Array(mac))}`;
  return { value, expiresAt, csrf: await csrfFor(adminToken, value) };
}

/** What a request's cookie says: no cookie, a forged or foreign one, one that has ended, or a live session. */
export type SessionReading =
  | { state: 'none' }
  | { state: 'invalid' }
  | { state: 'expired' }
  | { state: 'valid'; session: AdminSession };

function cookieValues(request: Request): string[] {
  const header = request.headers.get('cookie');
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** Whether the request carries a session cookie at all (valid or not). */
export function hasSessionCookie(request: Request): boolean {
  return cookieValues(request).length > 0;
}

function wellShaped(value: string): boolean {
  return value.length <= MAX_COOKIE_VALUE && COOKIE_VALUE.test(value);
}

async function readValue(value: string, adminToken: string, nowMs: number): Promise<SessionReading> {
  if (!wellShaped(value)) return { state: 'invalid' };
  const [payload, signature] = value.split('.') as [string, string];
  const mac = fromBase64url(signature);
  if (!mac || !(await crypto.subtle.verify('HMAC', await derivedKey(adminToken, SESSION_LABEL), mac, encoder.encode(payload)))) {
    return { state: 'invalid' };
  }
  const bytes = fromBase64url(payload);
  let claims: unknown;
  try {
    claims = bytes ? JSON.parse(new TextDecoder().decode(bytes)) : null;
  } catch {
    return { state: 'invalid' };
  }
  const exp = (claims as { exp?: unknown } | null)?.exp;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp)) return { state: 'invalid' };
  if (exp * 1000 <= nowMs) return { state: 'expired' };
  return { state: 'valid', session: { value, expiresAt: exp, csrf: await csrfFor(adminToken, value) } };
}

/**
 * The request's session; with several cookies of the name, the best reading wins, so junk or ended ones sent before a
 * live session (in whatever order the browser sends them) cannot end it.
 */
export async function readSession(request: Request, adminToken: string, nowMs = Date.now()): Promise<SessionReading> {
  let best: SessionReading = { state: 'none' };
  const rank = { none: 0, invalid: 1, expired: 2, valid: 3 } as const;
  let verified = 0;
  for (const value of cookieValues(request)) {
    if (wellShaped(value)) {
      if (verified === MAX_VERIFIED_COOKIES) break;
      verified += 1;
    }
    const reading = await readValue(value, adminToken, nowMs);
    if (rank[reading.state] > rank[best.state]) best = reading;
    if (best.state === 'valid') break;
  }
  return best;
}

/** Whether the request's `X-Reelgate-CSRF` is the session's CSRF value (checked as an HMAC, in constant time). */
export async function csrfMatches(request: Request, adminToken: string, session: AdminSession): Promise<boolean> {
  const given = fromBase64url(request.headers.get(CSRF_HEADER)?.trim() ?? '');
  if (!given) return false;
  return crypto.subtle.verify('HMAC', await derivedKey(adminToken, CSRF_LABEL), given, encoder.encode(session.value));
}

/**
 * Whether a browser sent the request from the worker's own origin: `Sec-Fetch-Site` (when sent) `same-origin` or
 * `none` (typed by the user), and `Origin` (when sent) this request's own origin.
 */
export function fromOwnOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.get('origin');
  return origin === null || origin === new URL(request.url).origin;
}

export const csrfRefused = (description: string) => new ApiError(403, 'csrf_refused', description);
export const sessionExpired = () =>
  new ApiError(401, 'session_expired', 'The admin session has expired: sign in again with the admin token.');

/**
 * What `__Host-` requires (Secure, `Path=/`, no Domain): the whole origin receives the cookie, but only the admin routes
 * read it, and nothing of the worker forwards a request's Cookie header anywhere.
 */
const COOKIE_ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Strict';

/** The `Set-Cookie` of a new session. */
export function sessionCookie(session: AdminSession): string {
  return `${SESSION_COOKIE}=${session.value}; ${COOKIE_ATTRIBUTES}; Max-Age=${SESSION_SECONDS}`;
}

/** The `Set-Cookie` that ends the session in the browser: the same name and attributes, or the browser keeps it. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;
}

/**
 * The caller as the sign-in limit counts them: the salted hash of the connection's network (an IPv6 /64), or of
 * "unknown"; never of an address a header names (see above).
 */
export async function signInAddressHash(request: Request, env: Pick<Env, 'ADDRESS_SALT' | 'API_SECRET'>): Promise<string> {
  return hashAddress(env, `admin-sign-in:${connectionNetwork(request) ?? 'unknown'}`);
}

/**
 * The failed sign-ins of each address per fixed window (D1 `admin_sign_in_failures`). Every attempt is counted before
 * the token is compared, so concurrent guesses cannot slip past the limit; a successful sign-in forgives the address.
 */
export class SignInLimiter {
  constructor(private readonly db: D1Database, private readonly now: () => number = Date.now) {}

  /** Counts an attempt; refuses it (with the seconds until the window ends) once the window's failures are spent. */
  async attempt(addressHash: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
    const nowSeconds = Math.floor(this.now() / 1000);
    const windowStart = nowSeconds - (nowSeconds % SIGN_IN_WINDOW_SECONDS);
    const [, counted] = await this.db.batch<{ failures: number }>([
      // Rows of ended windows can never refuse anyone again.
      this.db.prepare('DELETE FROM admin_sign_in_failures WHERE window_start < ?').bind(windowStart),
      this.db.prepare(`INSERT INTO admin_sign_in_failures (address_hash, window_start, failures) VALUES (?, ?, 1)
        ON CONFLICT (address_hash, window_start) DO UPDATE SET failures = failures + 1 RETURNING failures`)
        .bind(addressHash, windowStart),
    ]);
    const failures = counted?.results[0]?.failures ?? 1;
    if (failures <= SIGN_IN_MAX_FAILURES) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, windowStart + SIGN_IN_WINDOW_SECONDS - nowSeconds) };
  }

  /** The attempt was the right token: it was no failure, and the address starts afresh. */
  async succeeded(addressHash: string): Promise<void> {
    await this.db.prepare('DELETE FROM admin_sign_in_failures WHERE address_hash = ?').bind(addressHash).run();
  }
}
