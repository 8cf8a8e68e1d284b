// The worker is no open proxy and leaks nothing: malformed and hostile requests are refused in the v2 format before
// any upstream call, client headers never reach the upstream, every answer carries security headers, CORS is for
// configured origins only, and one visitor cannot flood the API.
import { createExecutionContext, env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { clearMemoryCache } from '../../worker/cache/cached.ts';
import type { ErrorResponse } from '../../worker/contract/public-api.ts';
import worker from '../../worker/index.ts';
import { ALLOWED_ORIGIN, api, config, DEFAULT_IP, expectError, expectNoSecret, resetWorld, sandbox, SECRETS, SITE, stats } from './helpers.ts';
import { playlistOfType, players } from './upstream-direct.ts';

beforeEach(() => resetWorld());

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('refusals', () => {
  const long = 'a'.repeat(300);
  // Encoded dots are resolved by URL parsing before the worker runs; what is left matches no route (404).
  const cases: Array<[string, string, number]> = [
    ['an encoded slash', `/api/sites/${SITE}/media/..%2f..%2fplayers`, 400],
    ['encoded dots', `/api/sites/${SITE}/media/%2e%2e/players`, 404],
    ['encoded dots inside an id', `/api/sites/${SITE}/media/ab%2e%2ecd`, 400],
    ['a double slash', `/api//sites/${SITE}/media/abcdefgh`, 400],
    ['an absolute URL in the path', `/api/sites/${SITE}/media/http:%2f%2fevil.example`, 400],
    ['an absolute URL in the query', `/api/sites/${SITE}/playlists/abcdefgh?seed=http://evil.example/`, 400],
    ['an overlong path', `/api/sites/${SITE}/media/${long}`, 400],
    ['an overlong query', `/api/sites/${SITE}/playlists/abcdefgh?tags=${'x'.repeat(600)}`, 400],
    ['a bad site id', '/api/sites/not-a-site/media/abcdefgh', 400],
    ['a bad media id', `/api/sites/${SITE}/media/abc`, 400],
    ['a bad playlist id', `/api/sites/${SITE}/playlists/abcdefgh1`, 400],
    ['an unknown query parameter', `/api/sites/${SITE}/players/abcdefgh?url=x`, 400],
    ['a repeated parameter', `/api/sites/${SITE}/playlists/abcdefgh?page=1&page=2`, 400],
    ['bad tags', `/api/sites/${SITE}/playlists/abcdefgh?tags=a;b`, 400],
    ['an unknown site', '/api/sites/zzzzzzzz/media/abcdefgh', 404],
    ['an unknown API route', '/api/v2/sites/x', 404],
  ];
  for (const [what, path, status] of cases) {
    it(`refuses ${what} with ${status} and no upstream call`, async () => {
      const response = await SELF.fetch(`http://localhost${path}`, { headers: { 'x-reelgate-dev-ip': '192.0.2.10' } });
      await expectError(response, status, status === 400 ? 'invalid_request' : 'not_found');
      expect((await stats()).total).toBe(0);
    });
  }

  it('refuses methods other than GET, HEAD and OPTIONS with 405', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await api(`/api/sites/${SITE}/players/abcdefgh`, { method, body: method === 'DELETE' ? null : '{}' });
      await expectError(response, 405, 'method_not_allowed');
    }
    expect((await stats()).total).toBe(0);
  });

  it('answers HEAD like GET, without a body', async () => {
    const player = (await players(SITE))[0]!;
    const response = await api(`/api/sites/${SITE}/players/${player.id}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBeTruthy();
  });
});

describe('secrets', () => {
  it('never forwards a client Authorization header: the upstream sees only the worker\'s secret', async () => {
    const player = (await players(SITE))[0]!;
    const response = await api(`/api/sites/${SITE}/players/${player.id}`, {
      headers: { authorization: 'Bearer client-supplied-token', cookie: 'session=abc' },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expectNoSecret(response, text);
    const seen = (await stats()).last_authorization_sha256;
    expect(seen).not.toBeNull();
    expect([await sha256(`Bearer ${env.API_SECRET}`), await sha256(env.API_SECRET)]).toContain(seen);
    expect([await sha256('Bearer client-supplied-token'), await sha256('client-supplied-token')]).not.toContain(seen);
  });

  it('keeps secrets and upstream text out of upstream failures', async () => {
    const fault = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify({ error_rate: 1 }),
      headers: { 'content-type': 'application/json' } });
    await fault.body?.cancel();
    const player = (await players(SITE).catch(() => [{ id: 'abcdefgh' }]))[0]!;
    const response = await api(`/api/sites/${SITE}/players/${player.id}`);
    expect(response.status).toBeGreaterThanOrEqual(500);
    await expectError(response, response.status, 'upstream_unavailable');
    const clear = await sandbox('/_sandbox/faults', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await clear.body?.cancel();
  });
});

describe('logs', () => {
  it('carry no secret, even when the upstream fails or refuses', async () => {
    const lines: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((a) => (a instanceof Error ? `${a.name} ${a.message} ${a.stack}` : String(a))).join(' '));
      }));
    try {
      const player = (await players(SITE))[0]!;
      for (const fault of [{ error_rate: 1 }, { outage: true }, { force_429: true }]) {
        const r = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify(fault), headers: { 'content-type': 'application/json' } });
        await r.body?.cancel();
        await budgetStub(env).reset();
        clearMemoryCache();
        await (await api(`/api/sites/${SITE}/players/${player.id}`, { headers: { authorization: 'Bearer client-token' } })).text();
        await (await api('/api/geo', { ip: '192.0.2.10' })).text();
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    for (const line of lines) {
      for (const secret of SECRETS) expect(line).not.toContain(secret);
      expect(line).not.toContain('client-token');
    }
  });
});

describe('security headers', () => {
  it('are on successes, errors and preflights alike', async () => {
    const player = (await players(SITE))[0]!;
    const answers = [
      await api(`/api/sites/${SITE}/players/${player.id}`),
      await api('/api/sites/zzzzzzzz/players/abcdefgh'),
      await api('/api/nothing'),
      await api('/api/geo', { method: 'OPTIONS', headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'GET' } }),
    ];
    for (const response of answers) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      await response.body?.cancel();
    }
  });

  // JSON answers are built with the front door's headers already in them (http/respond.ts); they must carry
  // exactly what the front door gives any other answer at that path: the same security headers, Vary once, the same
  // CORS for the same Origin, over http and https, for GET, HEAD and a revalidation.
  it('are the same on a prebuilt JSON answer as on any other answer at its path', async () => {
    const FRONT_DOOR = ['x-content-type-options', 'permissions-policy', 'cross-origin-opener-policy', 'content-security-policy',
      'x-frame-options', 'referrer-policy', 'cross-origin-resource-policy', 'strict-transport-security', 'vary',
      'access-control-allow-origin', 'access-control-expose-headers', 'timing-allow-origin'];
    const frontDoor = (response: Response) => Object.fromEntries(FRONT_DOOR.map((name) => [name, response.headers.get(name)]));
    const player = (await players(SITE))[0]!;
    for (const scheme of ['http', 'https']) {
      for (const origin of [null, ALLOWED_ORIGIN]) {
        const headers: Record<string, string> = { 'x-reelgate-dev-ip': DEFAULT_IP, ...(origin ? { origin } : {}) };
        const ask = (path: string, init: RequestInit = {}) => SELF.fetch(`${scheme}://localhost${path}`, { headers, ...init });
        // An error at an API path takes the front door's own way (applyCors, applySecurityHeaders).
        const reference = await ask('/api/nothing');
        await reference.body?.cancel();
        const expected = frontDoor(reference);
        expect(expected['vary']).toBe('Origin');
        expect(expected['strict-transport-security'] !== null).toBe(scheme === 'https');
        expect(expected['access-control-allow-origin']).toBe(origin);
        const path = `/api/sites/${SITE}/players/${player.id}`;
        const got = await ask(path);
        const etag = got.headers.get('etag')!;
        await got.body?.cancel();
        const hit = await ask(path);
        expect(hit.headers.get('x-reelgate-cache')).toBe('HIT');
        await hit.body?.cancel();
        const head = await ask(path, { method: 'HEAD' });
        const revalidated = await SELF.fetch(`${scheme}://localhost${path}`, { headers: { ...headers, 'if-none-match': etag } });
        expect(revalidated.status).toBe(304);
        for (const answer of [got, hit, head, revalidated]) expect(frontDoor(answer)).toEqual(expected);
        const geo = await ask('/api/geo');
        await geo.body?.cancel();
        expect(frontDoor(geo)).toEqual(expected);
      }
    }
  });
});

describe('CORS', () => {
  it('echoes a configured origin, with Vary: Origin', async () => {
    const response = await api('/api/geo', { headers: { origin: ALLOWED_ORIGIN } });
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-reelgate-cache');
  });

  it('refuses calls from other origins with a reason the page can read, naming the origin', async () => {
    const response = await api('/api/geo', { headers: { origin: 'https://elsewhere.example' } });
    await expectError(response, 403, 'origin_not_allowed');
    expect(response.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
    expect(response.headers.get('access-control-expose-headers')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
    const body = await (await api('/api/geo', { headers: { origin: 'https://elsewhere.example' } })).json<ErrorResponse>();
    expect(body.errors[0]!.description).toContain('https://elsewhere.example');
    expect(body.errors[0]!.description).toContain('allowed_origins');
    // Servers (no Origin) and the worker's own pages are not refused.
    expect((await api('/api/geo')).status).toBe(200);
    expect((await api('/api/geo', { headers: { origin: 'http://localhost' } })).status).toBe(200);
  });

  it('admits origins by pattern: any subdomain of a staging domain', async () => {
    const env2 = { ...env, REELGATE_CONFIG: JSON.stringify({ ...config, allowed_origins: ['https://*.staging.example'] }) };
    const allowed = await worker.fetch(new Request('http://localhost/api/geo', {
      headers: { origin: 'https://pr-7.staging.example', 'x-reelgate-dev-ip': DEFAULT_IP } }), env2, createExecutionContext());
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://pr-7.staging.example');
    const bare = await worker.fetch(new Request('http://localhost/api/geo', {
      headers: { origin: 'https://staging.example', 'x-reelgate-dev-ip': DEFAULT_IP } }), env2, createExecutionContext());
    await expectError(bare, 403, 'origin_not_allowed');
  });

  it('answers preflights of configured origins and refuses the others in the v2 format', async () => {
    const ok = await api('/api/geo', { method: 'OPTIONS', headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'GET' } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(ok.headers.get('access-control-allow-methods')).toContain('GET');
    // The widgets send the stand-in address header in dev mode (on in the tests).
    expect(ok.headers.get('access-control-allow-headers')).toContain('x-reelgate-dev-ip');
    const other = await api('/api/geo', { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' } });
    await expectError(other, 403, 'origin_not_allowed');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const write = await api('/api/geo', { method: 'OPTIONS', headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST' } });
    await expectError(write, 405, 'method_not_allowed');
  });

  it('lets any page load the embed script', async () => {
    const response = await SELF.fetch('http://localhost/embed/nothing-here.js', { headers: { origin: 'https://elsewhere.example' } });
    await expectError(response, 404, 'not_found');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('per-visitor abuse limit', () => {
  it('answers 429 rate_limited with Retry-After once one address sends too much', async () => {
    const playlist = await playlistOfType(SITE, 'manual');
    let limited: Response | null = null;
    // The limit is 200 a minute in the tests; a run that straddles a period boundary may need twice that.
    for (let i = 0; i < 450 && !limited; i++) {
      const response = await api(`/api/sites/${SITE}/playlists/${playlist.id}`, { ip: '203.0.113.77' });
      if (response.status === 429) limited = response;
      else await response.body?.cancel();
    }
    expect(limited).not.toBeNull();
    await expectError(limited!, 429, 'rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Others are not affected.
    expect((await api(`/api/sites/${SITE}/playlists/${playlist.id}`, { ip: '203.0.113.78' })).status).toBe(200);
  });
});
