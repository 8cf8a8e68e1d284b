// The admin API: the token check (constant-time, off without ADMIN_TOKEN), and keys created once, listed without
// secrets, stored only as hashes, and revoked with immediate effect.
import { createExecutionContext, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../worker/gateway/access-keys.ts';
import { gatewayFetch } from '../../worker/gateway/router.ts';
import { ADMIN, createKey, expectError, expectNoSecret, gateway, resetGateway, SITE } from './helpers.ts';

beforeEach(() => resetGateway());

describe('the admin token', () => {
  it('is required, and a wrong or malformed one is refused with 401', async () => {
    await expectError(await gateway('/admin/keys'), 401, 'unauthorized');
    for (const authorization of [`Bearer ${env.ADMIN_TOKEN}x`, `Bearer ${env.ADMIN_TOKEN.slice(0, -1)}`, env.ADMIN_TOKEN,
      `Basic ${btoa(`admin:${env.ADMIN_TOKEN}`)}`, 'Bearer ']) {
      const response = await gateway('/admin/keys', { headers: { authorization } });
      await expectError(response, 401, 'unauthorized');
    }
    const ok = await gateway('/admin/keys', { headers: ADMIN });
    expect(ok.status).toBe(200);
  });

  it('a gateway key is not an admin token', async () => {
    const key = await createKey(['read', 'write']);
    await expectError(await gateway('/admin/keys', { headers: key.auth }), 401, 'unauthorized');
  });

  it('without ADMIN_TOKEN the admin API is off and says so', async () => {
    const response = await gatewayFetch(new Request('http://localhost/admin/keys', { headers: ADMIN }),
      { ...env, ADMIN_TOKEN: undefined } as never, createExecutionContext());
    await expectError(response, 403, 'admin_disabled');
  });

  it('gateway answers carry the security headers and no CORS grant, like every answer of the worker', async () => {
    for (const response of [await gateway('/admin/keys', { headers: ADMIN }), await gateway('/v2/sites/x/media/'),
      await gateway('/v1/videos/list', { headers: { origin: 'https://news.example' } })]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      await response.body?.cancel();
    }
  });

  it('unknown admin routes and methods are refused in the v2 format', async () => {
    await expectError(await gateway('/admin/nothing', { headers: ADMIN }), 404, 'not_found');
    const put = await gateway('/admin/keys', { method: 'PUT', headers: ADMIN });
    expect(put.headers.get('allow')).toBe('GET, POST');
    await expectError(put, 405, 'method_not_allowed');
  });
});

describe('keys', () => {
  it('are shown once, listed without secrets and stored only as SHA-256', async () => {
    const created = await createKey(['read'], [SITE], 'dashboard');
    expect(created.token).toMatch(/^rg_[A-Za-z0-9_-]{43}$/);
    const listed = await gateway('/admin/keys', { headers: ADMIN });
    const text = await listed.text();
    expect(text).not.toContain(created.token);
    expect(JSON.parse(text)).toEqual({ keys: [{
      id: created.id, name: 'dashboard', scopes: ['read'], sites: [SITE], created_at: expect.any(String), revoked_at: null,
    }] });
    const rows = await env.GATEWAY_DB.prepare('SELECT * FROM access_keys').all<Record<string, unknown>>();
    expect(JSON.stringify(rows.results)).not.toContain(created.token.slice(3));
    expect(rows.results[0]!.token_sha256).toBe(await sha256Hex(created.token));
  });

  it('a bad key description is refused with the reason', async () => {
    const response = await gateway('/admin/keys', {
      method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', scopes: ['admin'], sites: ['*'] }),
    });
    await expectError(response, 400, 'invalid_request');
    const notJson = await gateway('/admin/keys', { method: 'POST', headers: { ...ADMIN, 'content-type': 'text/plain' }, body: '{}' });
    await expectError(notJson, 415, 'unsupported_media_type');
  });

  it('revocation takes effect on the very next request', async () => {
    const key = await createKey(['read']);
    expect((await gateway(`/v2/sites/${SITE}/players/`, { headers: key.auth })).status).toBe(200);
    const revoked = await gateway(`/admin/keys/${key.id}`, { method: 'DELETE', headers: ADMIN });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: key.id, revoked_at: expect.any(String) });
    const after = await gateway(`/v2/sites/${SITE}/players/`, { headers: key.auth });
    await expectError(after, 401, 'unauthorized');
    expect((await (await gateway('/admin/keys', { headers: ADMIN })).json() as { keys: unknown[] }).keys)
      .toEqual([expect.objectContaining({ id: key.id, revoked_at: expect.any(String) })]);
    await expectError(await gateway('/admin/keys/key_nosuchkey', { method: 'DELETE', headers: ADMIN }), 404, 'not_found');
  });

  it('the key never appears in responses other than its creation', async () => {
    const key = await createKey(['read']);
    const response = await gateway(`/v2/sites/${SITE}/players/`, { headers: key.auth });
    const text = await response.text();
    expect(text).not.toContain(key.token);
    expect([...response.headers].join('\n')).not.toContain(key.token);
    expectNoSecret(response, text);
  });
});

describe('without the schema', () => {
  it('the gateway says the migrations are missing instead of failing with a 500', async () => {
    await env.GATEWAY_DB.exec('DROP TABLE access_keys');
    try {
      await expectError(await gateway(`/v2/sites/${SITE}/players/`, { headers: { authorization: `Bearer rg_${'A'.repeat(43)}` } }),
        503, 'gateway_unavailable');
      await expectError(await gateway('/admin/keys', { headers: ADMIN }), 503, 'gateway_unavailable');
    } finally {
      await env.GATEWAY_DB.exec('DELETE FROM d1_migrations');
      await env.GATEWAY_DB.exec('DROP TABLE IF EXISTS idempotent_outcomes');
      await env.GATEWAY_DB.exec('DROP TABLE IF EXISTS audit_log');
      await env.GATEWAY_DB.exec('DROP TABLE IF EXISTS v1_nonces');
      await env.GATEWAY_DB.exec('DROP TABLE IF EXISTS upload_sessions');
      await resetGateway();
    }
  });
});

describe('with the first migration only', () => {
  it('a worker newer than its schema says the migrations are missing, for keys and for signed v1 calls', async () => {
    await env.GATEWAY_DB.exec('DROP TABLE v1_nonces');
    await env.GATEWAY_DB.exec('ALTER TABLE access_keys DROP COLUMN v1_secret_salt');
    try {
      await expectError(await gateway('/admin/keys', {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', scopes: ['read'], sites: ['*'] }),
      }), 503, 'gateway_unavailable');
      const signed = await gateway(`/v1/players/list?api_key=key_abc&api_timestamp=${Math.floor(Date.now() / 1000)}` +
        `&api_nonce=12345678&api_signature=${'0'.repeat(40)}&site_id=${SITE}`);
      expect(signed.status).toBe(503);
      expect(await signed.json()).toMatchObject({ status: 'error', code: 'GatewayUnavailable' });
    } finally {
      await env.GATEWAY_DB.exec('DELETE FROM d1_migrations');
      for (const table of ['access_keys', 'idempotent_outcomes', 'audit_log', 'v1_nonces', 'upload_sessions']) {
        await env.GATEWAY_DB.exec(`DROP TABLE IF EXISTS ${table}`);
      }
      await resetGateway();
    }
  });
});
