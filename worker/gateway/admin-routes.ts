/**
 * Everything under `/admin`: the operator console's pages (served from the ASSETS binding, no auth to load them), its
 * sign-in (`/admin/session`, admin-session.ts), and the admin API: create, list and revoke access keys
 * (`/admin/keys`), issue a key's v1 secret, page through the audit trail (`/admin/audit`), check a site's URL signing
 * (`/admin/sites/<site>/url-signing`, signing-check.ts), purge a site's cached answers (`/admin/purge`) and read the
 * configuration in force (`/admin/config`, admin-config.ts). Every API call needs the admin token or a console session
 * (admin-auth.ts). A key's token appears in exactly one response: the one that created it; a v1 secret in the one that
 * issued it. With no `ADMIN_TOKEN` the pages answer 404 and the API 403 `admin_disabled`.
 */
import { invalidate } from '../cache/index.ts';
import { cacheKeys, cachePrefixes } from '../catalog/index.ts';
import { RESOURCE_ID, SITE_ID, type Config } from '../config.ts';
import type { Env } from '../env.ts';
import { parseNewKey } from './access-keys.ts';
import { adminDisabled, requireAdmin, requireCsrf, tokensEqual } from './admin-auth.ts';
import { configView } from './admin-config.ts';
import {
  clearedSessionCookie, createSession, csrfRefused, fromOwnOrigin, readSession, sessionCookie, sessionExpired,
  signInAddressHash, SignInLimiter,
} from './admin-session.ts';
import { AuditLog, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE, type StatusFilter } from './audit.ts';
import { ApiError, errorBody } from '../http/errors.ts';
import { noStoreJson } from '../http/respond.ts';
import { gatewayNotFound, invalid, methodNotAllowed, unauthorized } from './errors.ts';
import { gatewayDb } from './db.ts';
import { KeyStore } from './key-store.ts';
import { readBoundedText } from './request-checks.ts';
import { checkUrlSigning } from './signing-check.ts';
import { liveWarnings } from '../metrics/index.ts';

const MAX_ADMIN_BODY_BYTES = 16 * 1024;
const KEY_ID = /^key_[A-Za-z0-9_-]{1,32}$/;

async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw invalid('The request body must be application/json.', 415, 'unsupported_media_type');
  const text = await readBoundedText(request, MAX_ADMIN_BODY_BYTES);
  if (!text.ok) throw invalid(text.description, text.status, text.code);
  try {
    return JSON.parse(text.value);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
}

function onlyParams(url: URL, allowed: string[]): void {
  for (const name of url.searchParams.keys()) {
    if (!allowed.includes(name)) throw invalid(`Unknown query parameter; this route accepts ${allowed.join(', ') || 'none'}.`);
  }
}

// ------------------------------------------------------------------------------------------------ the console's pages

/** The console page's policy (the console's contract): its own scripts, styles and API only, framed by nobody. */
export const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
  + "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** A file the console's build writes beside its page (dist/admin/): a plain name, no folder. */
const CONSOLE_FILE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(?:\.[A-Za-z0-9_-]{1,64})?\.(?:js|css|svg)$/;

type ConsolePage = { kind: 'redirect' } | { kind: 'index' } | { kind: 'file'; name: string };

function consolePage(path: string): ConsolePage | null {
  if (path === '/admin') return { kind: 'redirect' };
  if (path === '/admin/' || path === '/admin/index.html') return { kind: 'index' };
  const name = path.slice('/admin/'.length);
  return CONSOLE_FILE.test(name) ? { kind: 'file', name } : null;
}

const consoleNotBuilt = () => new ApiError(503, 'console_not_built',
  'The operator console is not built: run `npm run build` (it writes dist/admin/) and deploy again.');

async function serveConsole(request: Request, env: Env, page: ConsolePage): Promise<Response> {
  if (!env.ADMIN_TOKEN) throw gatewayNotFound();
  if (request.method !== 'GET' && request.method !== 'HEAD') throw methodNotAllowed(['GET', 'HEAD']);
  if (page.kind === 'redirect') {
    return new Response(null, { status: 308, headers: { location: '/admin/', 'cache-control': 'no-store' } });
  }
  if (page.kind === 'index') {
    const fetchPage = (path: string) => env.ASSETS!.fetch(new Request(new URL(path, request.url), { method: request.method }));
    let asset = env.ASSETS ? await fetchPage('/admin/index.html') : null;
    if (asset && asset.status >= 300 && asset.status < 400) {
      // Assets served with html_handling's trailing slashes redirect `index.html` to its folder.
      await asset.body?.cancel();
      asset = await fetchPage('/admin/');
    }
    if (asset?.status !== 200) {
      await asset?.body?.cancel();
      throw consoleNotBuilt();
    }
    return new Response(asset.body, {
      status: 200,
      headers: {
        'content-type': asset.headers.get('content-type') ?? 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // An HTML answer that states its policy keeps it (http/security-headers.ts).
        'content-security-policy': CONSOLE_CSP,
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      },
    });
  }
  if (!env.ASSETS) throw gatewayNotFound();
  const headers = new Headers();
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch) headers.set('if-none-match', ifNoneMatch);
  const asset = await env.ASSETS.fetch(new Request(new URL(`/admin/${page.name}`, request.url), { method: request.method, headers }));
  if (asset.status !== 200 && asset.status !== 304) {
    await asset.body?.cancel();
    throw gatewayNotFound('No such file of the console.');
  }
  const response = new Response(asset.body, asset);
  // Revalidated on every load (ETag), so a new build is picked up at once.
  response.headers.set('cache-control', 'no-cache');
  return response;
}

// ----------------------------------------------------------------------------------------------------- the session

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
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

async function handleSession(request: Request, env: Env, url: URL): Promise<Response> {
  const adminToken = env.ADMIN_TOKEN;
  if (!adminToken) throw adminDisabled();
  onlyParams(url, []);
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

// ------------------------------------------------------------------------------------------------ purge and audit

const PURGE_SCOPES = ['playlist', 'media', 'player'] as const;
type PurgeScope = 'site' | (typeof PURGE_SCOPES)[number];

/** `POST /admin/purge` `{site}` plus at most one of `playlist`, `media`, `player`. */
function readPurge(config: Config, body: unknown): { site: string; scope: PurgeScope; id: string | null } {
  const shape = 'The body is {"site":"<id>"} plus at most one of "playlist", "media", "player" (an 8-character id).';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(shape);
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => name !== 'site' && !(PURGE_SCOPES as readonly string[]).includes(name));
  if (unknown !== undefined) throw invalid(`Unknown field "${unknown.slice(0, 32).replace(/[^\w-]/g, '')}". ${shape}`);
  const site = fields.site;
  if (typeof site !== 'string' || !SITE_ID.test(site)) throw invalid(`site must be a site id (8 letters or digits). ${shape}`);
  if (!config.sites.has(site)) throw invalid(`Site ${site} is not in the configuration.`);
  const scopes = PURGE_SCOPES.filter((scope) => fields[scope] !== undefined);
  if (scopes.length > 1) throw invalid(`Name at most one of playlist, media, player. ${shape}`);
  const scope = scopes[0];
  if (scope === undefined) return { site, scope: 'site', id: null };
  const id = fields[scope];
  if (typeof id !== 'string' || !RESOURCE_ID.test(id)) throw invalid(`${scope} must be a platform id (8 letters or digits).`);
  return { site, scope, id };
}

/** The keys and prefixes a purge deletes (catalog/keys.ts): a media takes its site's feeds along, as a media write does. */
function purgeTargets(site: string, scope: PurgeScope, id: string | null): { keys: string[]; prefixes: string[] } {
  switch (scope) {
    case 'playlist':
      return { keys: [cacheKeys.feed(site, id!)], prefixes: [cachePrefixes.playlistVariants(site, id!)] };
    case 'media':
      return { keys: [cacheKeys.media(site, id!)], prefixes: [cachePrefixes.siteFeeds(site)] };
    case 'player':
      return { keys: [cacheKeys.player(site, id!)], prefixes: [] };
    case 'site':
      // A player key with no player id is the prefix of all the site's players.
      return { keys: [], prefixes: [cachePrefixes.siteFeeds(site), cachePrefixes.siteMedia(site), cacheKeys.player(site, '')] };
  }
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-](\d{2}):(\d{2})))?$/;

/** `since` / `until`: an ISO 8601 date, or a date and time with its zone; as stored (`toISOString`). */
function readTime(name: string, text: string): string {
  // A `+` sent unencoded in a query arrives as a space.
  const value = text.replace(/ (\d{2}:\d{2})$/, '+$1');
  const match = ISO_TIME.exec(value);
  const refuse = () => invalid(`${name} must be an ISO 8601 time with its zone (2026-05-01T12:00:00Z, `
    + '2026-05-01T14:00:00+02:00) or a date (2026-05-01, midnight UTC).');
  if (!match) throw refuse();
  const [, year, month, day, hour = '0', minute = '0', second = '0', , offsetHour = '0', offsetMinute = '0'] = match;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth || Number(hour) > 23
    || Number(minute) > 59 || Number(second) > 59 || Number(offsetHour) > 23 || Number(offsetMinute) > 59) throw refuse();
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw refuse();
  return new Date(ms).toISOString();
}

/** `status`: one status (201) or a class (`2xx`). */
function readStatus(text: string): StatusFilter {
  const match = /^([1-5])(\d\d|xx)$/i.exec(text);
  if (!match) throw invalid('status must be a status (e.g. 201) or a class: 2xx, 3xx, 4xx, 5xx.');
  const hundreds = Number(match[1]) * 100;
  return match[2]!.toLowerCase() === 'xx' ? { from: hundreds, below: hundreds + 100 } : { exact: Number(text) };
}

// -------------------------------------------------------------------------------------------------------- the routes

export async function handleAdmin(request: Request, env: Env, path: string, config: Config): Promise<Response> {
  const page = consolePage(path);
  if (page !== null) return serveConsole(request, env, page);
  const url = new URL(request.url);
  const segments = path.replace(/\/$/, '').split('/').slice(2); // after '/admin'
  if (segments[0] === 'session' && segments.length === 1) return handleSession(request, env, url);

  await requireAdmin(request, env.ADMIN_TOKEN);
  const keys = new KeyStore(gatewayDb(env));
  if (segments[0] === 'keys' && segments.length === 1) {
    onlyParams(url, []);
    if (request.method === 'GET') return noStoreJson({ keys: await keys.list() });
    if (request.method === 'POST') {
      const input = parseNewKey(await readJson(request));
      if (!input.ok) throw invalid(input.description);
      const { key, token, v1Secret } = await keys.create(input.value, env.V1_SIGNING_SECRET);
      // The only time the token (and the v1 secret) is shown.
      return noStoreJson({ ...key, key: token, ...(v1Secret ? { v1_secret: v1Secret } : {}) }, 201);
    }
    throw methodNotAllowed(['GET', 'POST']);
  }

  if (segments[0] === 'keys' && segments.length === 2) {
    onlyParams(url, []);
    if (request.method !== 'DELETE') throw methodNotAllowed(['DELETE']);
    const id = segments[1]!;
    if (!KEY_ID.test(id)) throw gatewayNotFound('No such key.');
    const revoked = await keys.revoke(id);
    if (!revoked) throw gatewayNotFound('No such key.');
    return noStoreJson(revoked);
  }

  if (segments[0] === 'keys' && segments.length === 3 && segments[2] === 'v1_secret') {
    onlyParams(url, []);
    if (request.method !== 'POST') throw methodNotAllowed(['POST']);
    if (!env.V1_SIGNING_SECRET) {
      throw new ApiError(409, 'v1_signing_disabled',
        'v1 signatures are off: set the V1_SIGNING_SECRET secret (wrangler secret put V1_SIGNING_SECRET) to issue v1 secrets.');
    }
    const id = segments[1]!;
    if (!KEY_ID.test(id)) throw gatewayNotFound('No such key.');
    const issued = await keys.issueV1Secret(id, env.V1_SIGNING_SECRET);
    if (!issued) throw gatewayNotFound('No such live key.');
    // A new secret replaces the previous one; this is the only time it is shown.
    return noStoreJson({ ...issued.key, v1_secret: issued.v1Secret }, 201);
  }

  if (segments[0] === 'audit' && segments.length === 1) {
    if (request.method !== 'GET') throw methodNotAllowed(['GET']);
    onlyParams(url, ['limit', 'cursor', 'key_id', 'site', 'status', 'since', 'until']);
    const limitText = url.searchParams.get('limit');
    const cursorText = url.searchParams.get('cursor');
    const keyId = url.searchParams.get('key_id');
    const site = url.searchParams.get('site');
    const status = url.searchParams.get('status');
    const since = url.searchParams.get('since');
    const until = url.searchParams.get('until');
    if (limitText !== null && !/^\d{1,3}$/.test(limitText)) throw invalid(`limit must be 1 to ${MAX_AUDIT_PAGE}.`);
    const limit = limitText === null ? DEFAULT_AUDIT_PAGE : Number(limitText);
    if (limit < 1 || limit > MAX_AUDIT_PAGE) throw invalid(`limit must be 1 to ${MAX_AUDIT_PAGE}.`);
    if (cursorText !== null && !/^[1-9]\d{0,15}$/.test(cursorText)) throw invalid('cursor is not valid.');
    if (keyId !== null && !KEY_ID.test(keyId)) throw invalid('key_id is not valid.');
    if (site !== null && !SITE_ID.test(site)) throw invalid('site must be a site id (8 letters or digits).');
    const from = since === null ? null : readTime('since', since);
    const to = until === null ? null : readTime('until', until);
    if (from !== null && to !== null && from >= to) throw invalid('since must be before until.');
    return noStoreJson(await new AuditLog(gatewayDb(env)).page({
      limit, before: cursorText === null ? null : Number(cursorText), keyId, site,
      status: status === null ? null : readStatus(status), since: from, until: to,
    }));
  }

  if (segments[0] === 'sites' && segments.length === 3 && segments[2] === 'url-signing') {
    if (request.method !== 'GET') throw methodNotAllowed(['GET']);
    onlyParams(url, ['media']);
    return noStoreJson(await checkUrlSigning(env, config, segments[1]!, url.searchParams.get('media')));
  }

  if (segments[0] === 'purge' && segments.length === 1) {
    onlyParams(url, []);
    if (request.method !== 'POST') throw methodNotAllowed(['POST']);
    const { site, scope, id } = readPurge(config, await readJson(request));
    const removed = await invalidate(env.CACHE, purgeTargets(site, scope, id));
    return noStoreJson({ site, scope, id, removed });
  }

  if (segments[0] === 'config' && segments.length === 1) {
    onlyParams(url, []);
    if (request.method !== 'GET') throw methodNotAllowed(['GET']);
    // With the running worker's own warnings: the Geo API failing, the budget saturated (worker/metrics/ view.ts).
    return noStoreJson(configView(env, config, await liveWarnings(env, config)));
  }

  throw gatewayNotFound();
}
