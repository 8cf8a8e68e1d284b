// The operator console's side of the worker (/work/notes/console-contract.md): the token exchanged for a
// session cookie, CSRF on the cookie's writes, the failed sign-in limit, purge, the configuration in force, the audit
// filters, and the console's pages from the ASSETS binding (a stand-in here: dist/ is build output).
import { createExecutionContext, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../worker/index.ts';
import { getConfig } from '../../worker/config.ts';
import { configWarnings } from '../../worker/gateway/admin/config-view.ts';
import {
  createSession, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_SECONDS, SignInLimiter,
} from '../../worker/gateway/admin/sessions.ts';
import { api } from '../worker/helpers.ts';
import { ADMIN, catalog, expectError, gateway, resetGateway, SITE } from './helpers.ts';

const ORIGIN = 'http://localhost';
const JSON_BODY = { 'content-type': 'application/json' };
const COOKIE = '__Host-reelgate_admin';
const COOKIE_SHAPE = /^__Host-reelgate_admin=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Path=\/; HttpOnly; Secure; SameSite=Strict; Max-Age=1800$/;
/** A server's render token (worker/http/visitor.ts): whoever holds it may name the visitor in x-reelgate-visitor-ip. */
const RENDER_TOKEN = 'test-render-token-not-for-production';
const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
  + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

beforeEach(async () => {
  await resetGateway();
  await env.GATEWAY_DB.exec('DELETE FROM admin_sign_in_failures');
});

/** A sign-in from the connection at `ip` (`cf-connecting-ip`, as Cloudflare sets it). */
function signIn(token: unknown = env.ADMIN_TOKEN, ip = '198.51.100.7', headers: Record<string, string> = {}): Promise<Response> {
  return gateway('/admin/session', {
    method: 'POST', headers: { ...JSON_BODY, 'cf-connecting-ip': ip, ...headers }, body: JSON.stringify({ token }),
  });
}

/**
 * A sign-in from the connection at `ip` by a holder of the render token, naming `visitor` as the address it acts for
 * (and, with DEV_MODE "true", naming it in x-reelgate-dev-ip too).
 */
function signInNaming(token: string, ip: string, visitor: string, devMode: 'true' | 'false'): Promise<Response> {
  const headers: Record<string, string> = {
    ...JSON_BODY, 'cf-connecting-ip': ip, 'x-reelgate-visitor-ip': visitor, authorization: `Bearer ${RENDER_TOKEN}`,
    ...(devMode === 'true' ? { 'x-reelgate-dev-ip': visitor } : {}),
  };
  return worker.fetch(new Request(`${ORIGIN}/admin/session`, { method: 'POST', headers, body: JSON.stringify({ token }) }),
    { ...env, RENDER_TOKEN, DEV_MODE: devMode } as never, createExecutionContext());
}

/** Waits out the end of the sign-in window when it is close, so the attempts that follow fall in one window. */
async function oneWindowAhead(): Promise<void> {
  const into = (Date.now() / 1000) % SIGN_IN_WINDOW_SECONDS;
  if (into > SIGN_IN_WINDOW_SECONDS - 10) await new Promise((r) => setTimeout(r, (SIGN_IN_WINDOW_SECONDS - into + 1) * 1000));
}

/** A signed-in console: its cookie (as the browser sends it back) and its CSRF value. */
async function signedIn(): Promise<{ cookie: string; csrf: string }> {
  const response = await signIn();
  const body = await response.json() as { csrf: string };
  expect(response.status).toBe(201);
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, csrf: body.csrf };
}

/** The browser's own same-origin fetch, as the console makes it. */
const sameOrigin = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };

describe('the session', () => {
  it('is the token exchanged for a signed, HttpOnly, Secure, SameSite=Strict cookie of 30 minutes', async () => {
    const before = Date.now();
    const response = await signIn(env.ADMIN_TOKEN, '198.51.100.7', sameOrigin);
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(response.headers.get('set-cookie')).toMatch(COOKIE_SHAPE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = JSON.parse(text);
    expect(Object.keys(body).sort()).toEqual(['csrf', 'expires_at']);
    expect(body.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 1800_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 1800_000);
    expect(text + response.headers.get('set-cookie')).not.toContain(env.ADMIN_TOKEN);

    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    const again = await gateway('/admin/session', { headers: { cookie } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
  });

  it('GET without a valid cookie is 401 unauthorized; a forged or foreign one too', async () => {
    await expectError(await gateway('/admin/session'), 401, 'unauthorized');
    const { cookie } = await signedIn();
    const [payload, mac] = cookie.slice(`${COOKIE}=`.length).split('.') as [string, string];
    const longer = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 86_400, nonce: 'x' }))
      .replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const foreign = await createSession('another-admin-token-of-another-deployment');
    for (const forged of [`${COOKIE}=${longer}.${mac}`, `${COOKIE}=${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`,
      `${COOKIE}=${payload}`, `${COOKIE}=`, `${COOKIE}=${foreign.value}`, `reelgate_admin=${payload}.${mac}`]) {
      await expectError(await gateway('/admin/session', { headers: { cookie: forged } }), 401, 'unauthorized');
      await expectError(await gateway('/admin/keys', { headers: { cookie: forged } }), 401, 'unauthorized');
    }
  });

  it('an expired cookie is 401 session_expired, on the session and on the API', async () => {
    const old = await createSession(env.ADMIN_TOKEN, Date.now() - 2 * 1800_000);
    const cookie = `${COOKIE}=${old.value}`;
    await expectError(await gateway('/admin/session', { headers: { cookie } }), 401, 'session_expired');
    await expectError(await gateway('/admin/keys', { headers: { cookie } }), 401, 'session_expired');
    // Among other cookies, and after an ended one of the name, the live one wins.
    const live = await createSession(env.ADMIN_TOKEN);
    const both = await gateway('/admin/session', { headers: { cookie: `theme=dark; ${cookie}; ${COOKIE}=${live.value}` } });
    expect(both.status).toBe(200);
  });

  it('cookies of the name sent before the live one, junk or of the old name, cannot end the session', async () => {
    const { cookie, csrf } = await signedIn();
    const planted = [...Array(4).fill(`${COOKIE}=junk`), ...Array(4).fill('reelgate_admin=junk')].join('; ');
    const forged = (await createSession('another-admin-token-of-another-deployment')).value;
    for (const header of [`${planted}; ${cookie}`, `${Array(24).fill(`${COOKIE}=${forged}`).join('; ')}; ${cookie}`,
      `${Array(100).fill(`${COOKIE}=junk`).join('; ')}; ${cookie}`]) {
      const session = await gateway('/admin/session', { headers: { cookie: header } });
      expect(session.status, await session.text()).toBe(200);
      const keys = await gateway('/admin/keys', { headers: { cookie: header } });
      expect(keys.status).toBe(200);
      expect(await keys.json()).toEqual({ keys: [] });
      // Still the live session: a write needs its CSRF value, and goes through with it.
      await expectError(await gateway('/admin/session', { method: 'DELETE', headers: { cookie: header, ...sameOrigin } }),
        403, 'csrf_refused');
    }
    const out = await gateway('/admin/session', {
      method: 'DELETE', headers: { cookie: `${planted}; ${cookie}`, 'x-reelgate-csrf': csrf, ...sameOrigin },
    });
    expect(out.status).toBe(204);
  });

  it('a wrong token is 401; a body that is not {token} is 400 and not counted', async () => {
    await expectError(await signIn(`${env.ADMIN_TOKEN}x`), 401, 'unauthorized');
    await expectError(await signIn(''), 400, 'invalid_request');
    await expectError(await signIn(42), 400, 'invalid_request');
    await expectError(await gateway('/admin/session', {
      method: 'POST', headers: JSON_BODY, body: JSON.stringify({ token: env.ADMIN_TOKEN, remember: true }),
    }), 400, 'invalid_request');
    await expectError(await gateway('/admin/session', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      415, 'unsupported_media_type');
    const { results } = await env.GATEWAY_DB.prepare('SELECT failures FROM admin_sign_in_failures').all<{ failures: number }>();
    expect(results.map((r) => r.failures)).toEqual([1]);
    await expectError(await gateway('/admin/session', { method: 'PUT' }), 405, 'method_not_allowed');
    await expectError(await gateway('/admin/session?x=1'), 400, 'invalid_request');
  });

  it('a sign-in from another site is refused', async () => {
    await expectError(await signIn(env.ADMIN_TOKEN, '198.51.100.7', { origin: 'https://evil.example' }), 403, 'csrf_refused');
    await expectError(await signIn(env.ADMIN_TOKEN, '198.51.100.7', { 'sec-fetch-site': 'cross-site' }), 403, 'csrf_refused');
  });

  it('after 5 failed sign-ins an address is refused 429 until its window ends, even with the right token', async () => {
    await oneWindowAhead();
    const ip = '203.0.113.9';
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i += 1) await expectError(await signIn('wrong-token', ip), 401, 'unauthorized');
    const refused = await signIn(env.ADMIN_TOKEN, ip);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_WINDOW_SECONDS);
    expect(refused.headers.has('set-cookie')).toBe(false);
    await expectError(refused, 429, 'rate_limited');
    // Another address is not held back; the address is stored only as its salted hash.
    expect((await signIn(env.ADMIN_TOKEN, '198.51.100.20')).status).toBe(201);
    const rows = JSON.stringify((await env.GATEWAY_DB.prepare('SELECT * FROM admin_sign_in_failures').all()).results);
    expect(rows).not.toContain(ip);
    expect(rows).toMatch(/"address_hash":"[0-9a-f]{40}"/);
  });

  it('the limit counts the connection\'s address, whatever visitor a render token holder names', async () => {
    await oneWindowAhead();
    for (const [devMode, ip] of [['false', '203.0.113.21'], ['true', '203.0.113.22']] as const) {
      let visitor = 0;
      const next = () => `192.0.2.${(visitor += 1)}`;
      for (let i = 0; i < SIGN_IN_MAX_FAILURES; i += 1) {
        await expectError(await signInNaming('wrong-token', ip, next(), devMode), 401, 'unauthorized');
      }
      for (const token of ['wrong-token', env.ADMIN_TOKEN]) {
        const refused = await signInNaming(token, ip, next(), devMode);
        expect(refused.headers.has('set-cookie')).toBe(false);
        await expectError(refused, 429, 'rate_limited');
      }
    }
  });

  it('failed sign-ins naming the operator\'s address cannot lock the operator out', async () => {
    await oneWindowAhead();
    const operator = '198.51.100.30';
    for (const [devMode, ip] of [['false', '203.0.113.31'], ['true', '203.0.113.32']] as const) {
      for (let i = 0; i <= SIGN_IN_MAX_FAILURES; i += 1) await signInNaming('wrong-token', ip, operator, devMode);
    }
    // The operator's own connection, as the browser signs in: none of those failures was its.
    const response = await signIn(env.ADMIN_TOKEN, operator, sameOrigin);
    expect(response.status, await response.text()).toBe(201);
    expect(response.headers.get('set-cookie')).toMatch(COOKIE_SHAPE);
  });

  it('the limit counts per window, forgives a success and forgets ended windows', async () => {
    let now = Date.UTC(2026, 4, 1, 12, 0, 5);
    const limiter = new SignInLimiter(env.GATEWAY_DB, () => now);
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i += 1) expect(await limiter.attempt('a')).toEqual({ allowed: true });
    expect(await limiter.attempt('a')).toEqual({ allowed: false, retryAfterSeconds: SIGN_IN_WINDOW_SECONDS - 5 });
    expect(await limiter.attempt('b')).toEqual({ allowed: true });
    await limiter.succeeded('b');
    now += SIGN_IN_WINDOW_SECONDS * 1000;
    expect(await limiter.attempt('a')).toEqual({ allowed: true });
    const { results } = await env.GATEWAY_DB.prepare('SELECT address_hash, failures FROM admin_sign_in_failures').all();
    expect(results).toEqual([{ address_hash: 'a', failures: 1 }]);
  });

  it('DELETE ends the session in the browser: 204 and an emptied cookie; with a live one, only with its CSRF', async () => {
    const { cookie, csrf } = await signedIn();
    await expectError(await gateway('/admin/session', { method: 'DELETE', headers: { cookie } }), 403, 'csrf_refused');
    const out = await gateway('/admin/session', { method: 'DELETE', headers: { cookie, 'x-reelgate-csrf': csrf, ...sameOrigin } });
    expect(out.status).toBe(204);
    // The same name and attributes as the cookie it ends, or the browser would keep that one.
    expect(out.headers.get('set-cookie')).toBe('__Host-reelgate_admin=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0');
    expect((await gateway('/admin/session', { method: 'DELETE' })).status).toBe(204);
  });
});

describe('the cookie on the API', () => {
  const newKey = JSON.stringify({ name: 'from the console', scopes: ['read'], sites: ['*'] });

  it('reads need no CSRF value', async () => {
    const { cookie } = await signedIn();
    const response = await gateway('/admin/keys', { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ keys: [] });
  });

  it('a write without the CSRF header, with a wrong one, or from another site is 403 csrf_refused', async () => {
    const { cookie, csrf } = await signedIn();
    const other = await createSession(env.ADMIN_TOKEN);
    for (const headers of <Array<Record<string, string>>>[
      { ...sameOrigin },
      { ...sameOrigin, 'x-reelgate-csrf': other.csrf },
      { ...sameOrigin, 'x-reelgate-csrf': 'not base64url!' },
      { 'x-reelgate-csrf': csrf, origin: 'https://evil.example' },
      { 'x-reelgate-csrf': csrf, origin: 'http://127.0.0.1:9999' },
      { 'x-reelgate-csrf': csrf, origin: 'null' },
      { 'x-reelgate-csrf': csrf, 'sec-fetch-site': 'cross-site' },
      { 'x-reelgate-csrf': csrf, 'sec-fetch-site': 'same-site' },
    ]) {
      const response = await gateway('/admin/keys', { method: 'POST', headers: { ...JSON_BODY, cookie, ...headers }, body: newKey });
      await expectError(response, 403, 'csrf_refused');
    }
    expect((await (await gateway('/admin/keys', { headers: ADMIN })).json() as { keys: unknown[] }).keys).toEqual([]);
  });

  it('a write with the CSRF header from the worker\'s own origin goes through', async () => {
    const { cookie, csrf } = await signedIn();
    const created = await gateway('/admin/keys', {
      method: 'POST', headers: { ...JSON_BODY, cookie, 'x-reelgate-csrf': csrf, ...sameOrigin }, body: newKey,
    });
    expect(created.status).toBe(201);
    const { id } = await created.json() as { id: string };
    // No Origin and no Sec-Fetch-Site (a browser that sends neither): the CSRF value alone.
    const revoked = await gateway(`/admin/keys/${id}`, { method: 'DELETE', headers: { cookie, 'x-reelgate-csrf': csrf } });
    expect(revoked.status).toBe(200);
  });

  it('the bearer token needs no CSRF value, whatever else the request carries', async () => {
    const response = await gateway('/admin/keys', { method: 'POST', headers: { ...ADMIN, ...JSON_BODY }, body: newKey });
    expect(response.status).toBe(201);
    // With a bearer header, the token decides: a live cookie beside a wrong token does not let it through.
    const { cookie } = await signedIn();
    await expectError(await gateway('/admin/keys', { headers: { authorization: 'Bearer wrong', cookie } }), 401, 'unauthorized');
  });

  it('a token rotation ends every session', async () => {
    const { cookie } = await signedIn();
    const response = await worker.fetch(new Request(`${ORIGIN}/admin/session`, { headers: { cookie } }),
      { ...env, ADMIN_TOKEN: 'a-new-admin-token-after-rotation' } as never, createExecutionContext());
    await expectError(response, 401, 'unauthorized');
  });
});

describe('POST /admin/purge', () => {
  const CACHE = 'x-reelgate-cache';
  async function read(path: string): Promise<string | null> {
    const response = await api(path);
    expect(response.status, path).toBe(200);
    await response.body?.cancel();
    return response.headers.get(CACHE);
  }
  const purge = (body: unknown, headers: Record<string, string> = ADMIN) =>
    gateway('/admin/purge', { method: 'POST', headers: { ...JSON_BODY, ...headers }, body: JSON.stringify(body) });

  it('a playlist: names the keys it removed, and the next load is a MISS', async () => {
    const site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
    const playlist = site.playlists.manual[0] as string;
    const path = `/api/sites/${SITE}/playlists/${playlist}`;
    await read(path);
    expect(await read(path)).toBe('HIT');
    const response = await purge({ site: SITE, playlist });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json() as { removed: string[] };
    expect(body).toEqual({ site: SITE, scope: 'playlist', id: playlist, removed: expect.any(Array) });
    expect(body.removed).toContain(`feed:${SITE}:${playlist}`);
    expect(body.removed.every((key) => key.startsWith(`feed:${SITE}:${playlist}`))).toBe(true);
    expect(await read(path)).toBe('MISS');
  });

  it('a site, through the console: its feeds, media and players', async () => {
    const site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
    const player = site.players[0] as string;
    const playlist = site.playlists.manual[0] as string;
    await read(`/api/sites/${SITE}/players/${player}`);
    await read(`/api/sites/${SITE}/playlists/${playlist}`);
    const { cookie, csrf } = await signedIn();
    const response = await purge({ site: SITE }, { cookie, 'x-reelgate-csrf': csrf, ...sameOrigin });
    expect(response.status).toBe(200);
    const body = await response.json() as { scope: string; id: null; removed: string[] };
    expect(body).toMatchObject({ site: SITE, scope: 'site', id: null });
    expect(body.removed).toEqual(expect.arrayContaining([`player:${SITE}:${player}`, `feed:${SITE}:${playlist}`]));
    expect(await read(`/api/sites/${SITE}/players/${player}`)).toBe('MISS');
    await expectError(await purge({ site: SITE }, { cookie, ...sameOrigin }), 403, 'csrf_refused');
  });

  it('refuses what it cannot name: unknown fields and sites, malformed ids, two scopes', async () => {
    for (const body of [{}, { site: SITE, extra: 1 }, { site: 'NOTASITE' }, { site: 'bad site' }, { site: SITE, media: 'x' },
      { site: SITE, playlist: 'abcd1234', media: 'abcd1234' }, { site: SITE, player: 12345678 }, [SITE], 'site']) {
      await expectError(await purge(body), 400, 'invalid_request');
    }
    await expectError(await gateway('/admin/purge', { headers: ADMIN }), 405, 'method_not_allowed');
    await expectError(await purge({ site: SITE }, {}), 401, 'unauthorized');
  });
});

describe('GET /admin/config', () => {
  it('is the configuration in force, with binding names and never a secret value', async () => {
    const response = await gateway('/admin/config', { headers: ADMIN });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const secrets = [env.API_SECRET, env.GEO_API_KEY, env.SIGNED_SITE_SECRET, env.ADMIN_TOKEN, env.V1_SIGNING_SECRET,
      env.ADDRESS_SALT, env.PLAYBACK_KEYS, ...env.PLAYBACK_KEYS.split(/[\s,]+/).map((pair) => pair.split(':')[1]!)];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
    const body = JSON.parse(text);
    const config = JSON.parse(env.REELGATE_CONFIG);
    expect(Object.keys(body.sites).sort()).toEqual(Object.keys(config.sites).sort());
    const sealed = Object.keys(config.sites).find((id) => config.sites[id].url_signing)!;
    expect(body.sites[sealed].url_signing).toEqual({
      secret_binding: 'SIGNED_SITE_SECRET', configured: true, lifetime_minutes: 60, window_seconds: 300,
    });
    expect(body.sites[SITE]).toEqual({ playlists: config.sites[SITE].playlists, media: config.sites[SITE].media });
    expect(body.policies['gb-only']).toMatchObject({ allow_countries: ['GB'], unknown: 'deny' });
    expect(body.allowed_origins).toEqual(config.allowed_origins);
    expect(body.budget).toMatchObject({ rate_per_minute: 50, burst: 30, max_wait_ms: 400, upstream_timeout_ms: 3000 });
    expect(body.cache.feed).toEqual({ fresh_seconds: 30, stale_seconds: 600 });
    expect(body.feed).toMatchObject({ default_page_length: 10, max_page_length: 50, max_items: 100 });
    expect(body.secrets).toMatchObject({ API_SECRET: true, PLAYBACK_KEYS: true, ADMIN_TOKEN: true });
    // The tests run with DEV_MODE on and PLAYBACK_KEYS set.
    const codes = body.warnings.map((w: { code: string }) => w.code);
    expect(codes).toContain('dev_mode_on');
    expect(codes).not.toContain('no_playback_keys');
    const { cookie } = await signedIn();
    expect((await gateway('/admin/config', { headers: { cookie } })).status).toBe(200);
    await expectError(await gateway('/admin/config', { method: 'POST', headers: ADMIN }), 405, 'method_not_allowed');
  });

  it('warns of what is missing; the running worker\'s warnings come after', () => {
    const bare = { ...env, PLAYBACK_KEYS: '', DEV_MODE: 'false', ADDRESS_SALT: undefined, SIGNED_SITE_SECRET: undefined } as never;
    const live = [{ code: 'geo_api_failing', description: 'The Geo API failed 12 of the last 20 lookups.' }];
    expect(configWarnings(bare, getConfig(env), live).map((w) => w.code))
      .toEqual(['no_playback_keys', 'no_address_salt', 'url_signing_unconfigured', 'geo_api_failing']);
    expect(configWarnings(env, getConfig(env)).map((w) => w.code)).toEqual(['dev_mode_on']);
  });
});

describe('GET /admin/audit filters', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 12, minute)).toISOString();
  beforeEach(async () => {
    const rows: Array<[string, string | null, number]> = [
      [at(0), SITE, 201], [at(1), SITE, 404], [at(2), 'otherSt1', 200], [at(3), SITE, 503], [at(4), null, 401], [at(5), SITE, 200],
    ];
    await env.GATEWAY_DB.batch(rows.map(([time, site, status]) => env.GATEWAY_DB.prepare(
      `INSERT INTO audit_log (at, key_id, method, route, path, site, status, idempotency_key, replayed)
       VALUES (?, 'key_test', 'PATCH', 'media', '/v2/sites/x/media/y/', ?, ?, NULL, 0)`).bind(time, site, status)));
  });
  async function statuses(query: string): Promise<number[]> {
    const response = await gateway(`/admin/audit?${query}`, { headers: ADMIN });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return (JSON.parse(text).entries as Array<{ status: number }>).map((e) => e.status);
  }

  it('by site, exact status or class, and time (since inclusive, until exclusive)', async () => {
    expect(await statuses(`site=${SITE}`)).toEqual([200, 503, 404, 201]);
    expect(await statuses('status=201')).toEqual([201]);
    expect(await statuses('status=2xx')).toEqual([200, 200, 201]);
    expect(await statuses('status=4XX')).toEqual([401, 404]);
    expect(await statuses(`since=${at(1)}&until=${at(3)}`)).toEqual([200, 404]);
    expect(await statuses(`since=${encodeURIComponent('2026-05-01T14:02:00+02:00')}`)).toEqual([200, 401, 503, 200]);
    // An unencoded '+' arrives as a space, and is read as the '+' it was.
    expect(await statuses('until=2026-05-01T14:01:00+02:00')).toEqual([201]);
    expect(await statuses('since=2026-05-01&until=2026-05-02')).toHaveLength(6);
    expect(await statuses(`site=${SITE}&status=2xx&since=${at(1)}`)).toEqual([200]);
  });

  it('pages through a filtered trail with its cursor', async () => {
    const first = await (await gateway(`/admin/audit?site=${SITE}&limit=3`, { headers: ADMIN })).json() as any;
    expect(first.entries.map((e: { status: number }) => e.status)).toEqual([200, 503, 404]);
    const next = await (await gateway(`/admin/audit?site=${SITE}&limit=3&cursor=${first.next_cursor}`, { headers: ADMIN })).json() as any;
    expect(next).toEqual({ entries: [expect.objectContaining({ status: 201, replayed: false })], next_cursor: null });
  });

  it('a malformed filter is 400 with what is accepted', async () => {
    for (const query of ['status=abc', 'status=600', 'status=20', 'status=2x', 'site=nope', 'since=yesterday',
      'since=2026-02-30', 'since=2026-05-01T12:00:00', 'until=2026-05-01T25:00:00Z', 'since=1714560000',
      `since=${at(3)}&until=${at(1)}`, 'sort=at']) {
      const response = await gateway(`/admin/audit?${query}`, { headers: ADMIN });
      const text = await response.text();
      expect(response.status, query).toBe(400);
      expect(JSON.parse(text).errors[0].code).toBe('invalid_request');
    }
    const response = await gateway('/admin/audit?since=yesterday', { headers: ADMIN });
    expect((await response.json() as any).errors[0].description).toMatch(/ISO 8601/);
  });
});

describe('the console\'s pages', () => {
  const files: Record<string, { type: string; body: string }> = {
    '/admin/index.html': { type: 'text/html; charset=utf-8', body: '<!doctype html><title>console</title><script type="module" src="console.js"></script>' },
    '/admin/console.js': { type: 'text/javascript; charset=utf-8', body: 'export {};' },
  };
  /** The ASSETS binding over a dist/admin/ of these files (dist/ is build output the tests do not rely on). */
  const assets = (served: Record<string, { type: string; body: string }>) => ({
    fetch: async (input: Request | string) => {
      const path = new URL(typeof input === 'string' ? input : input.url).pathname;
      const file = served[path];
      return file ? new Response(file.body, { headers: { 'content-type': file.type, etag: '"v1"' } }) : new Response('Not found', { status: 404 });
    },
  });
  const front = (path: string, over: Record<string, unknown>, init: RequestInit = {}) =>
    worker.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...over } as never, createExecutionContext());

  it('GET /admin/ is the console\'s HTML under its own strict policy, never stored', async () => {
    for (const path of ['/admin/', '/admin/index.html']) {
      const response = await front(path, { ASSETS: assets(files) });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<title>console</title>');
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const head = await front('/admin/', { ASSETS: assets(files) }, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const bare = await front('/admin', { ASSETS: assets(files) });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/admin/');
  });

  it('the console\'s files come from ASSETS, revalidated on each load; others are 404', async () => {
    const script = await front('/admin/console.js', { ASSETS: assets(files) });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toBe('no-cache');
    expect(await script.text()).toBe('export {};');
    await expectError(await front('/admin/missing.js', { ASSETS: assets(files) }), 404, 'not_found');
    // Not a file name of the console: the admin API, which wants the token.
    await expectError(await front('/admin/console.js.map', { ASSETS: assets(files) }), 401, 'unauthorized');
    await expectError(await front('/admin/a.b.c.js', { ASSETS: assets(files) }), 401, 'unauthorized');
    await expectError(await front('/admin/', { ASSETS: assets(files) }, { method: 'POST' }), 405, 'method_not_allowed');
  });

  it('without a build the page says so: 503 console_not_built', async () => {
    await expectError(await front('/admin/', { ASSETS: assets({}) }), 503, 'console_not_built');
    await expectError(await front('/admin/', { ASSETS: undefined }), 503, 'console_not_built');
  });

  it('without ADMIN_TOKEN every page is 404, and the API says it is disabled', async () => {
    for (const path of ['/admin/', '/admin/index.html', '/admin/console.js', '/admin']) {
      await expectError(await front(path, { ADMIN_TOKEN: undefined, ASSETS: assets(files) }), 404, 'not_found');
    }
    await expectError(await front('/admin/session', { ADMIN_TOKEN: undefined }, {
      method: 'POST', headers: JSON_BODY, body: JSON.stringify({ token: 'anything' }),
    }), 403, 'admin_disabled');
    await expectError(await front('/admin/config', { ADMIN_TOKEN: undefined }, { headers: ADMIN }), 403, 'admin_disabled');
  });
});
