/** Shared steps of the gateway suites: the D1 schema, a clean world per test, keys, and calls as a team's server. */
import { applyD1Migrations, env, SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import { sha256Hex } from '../../worker/gateway/access-keys.ts';
import { resetWorld } from '../worker/helpers.ts';

export { callsTo, catalog, expectError, expectNoSecret, sandbox, SITE, EUROPE_SITE, stats } from '../worker/helpers.ts';

export const ADMIN = { authorization: `Bearer ${env.ADMIN_TOKEN}` };

/** A clean gateway: schema applied, tables empty, the sandbox re-seeded, cache and budget reset. */
export async function resetGateway(): Promise<void> {
  await applyD1Migrations(env.GATEWAY_DB, env.GATEWAY_MIGRATIONS);
  await env.GATEWAY_DB.batch(['access_keys', 'idempotent_outcomes', 'audit_log', 'v1_nonces', 'upload_sessions']
    .map((table) => env.GATEWAY_DB.prepare(`DELETE FROM ${table}`)));
  // A sandbox limit far above the budget: these suites count calls, they do not probe the platform's own limit.
  await resetWorld(10_000);
}

export function gateway(path: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(`http://localhost${path}`, init);
}

export interface CreatedKey {
  id: string;
  token: string;
  auth: { authorization: string };
  /** The key's v1 secret for signed /v1 calls (shown at creation when V1_SIGNING_SECRET is set, as in the tests). */
  v1Secret: string;
}

export async function createKey(scopes: string[], sites: string[] = ['*'], name = 'test key'): Promise<CreatedKey> {
  const response = await gateway('/admin/keys', {
    method: 'POST',
    headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name, scopes, sites }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const body = JSON.parse(text) as { id: string; key: string; v1_secret: string };
  return { id: body.id, token: body.key, auth: { authorization: `Bearer ${body.key}` }, v1Secret: body.v1_secret };
}

/** A JSON write through the gateway. */
export function send(path: string, method: string, key: CreatedKey, body?: unknown, headers: Record<string, string> = {}) {
  return gateway(path, {
    method,
    headers: { ...key.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** What the sandbox saw as the Authorization of the last v2 call: the platform secret, hashed. */
export function platformAuthorizationSha256(): Promise<string> {
  return sha256Hex(`Bearer ${env.API_SECRET}`);
}

/** A v2 resource read straight from the sandbox (not through the gateway), to check what a write did. */
export async function direct<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await env.SANDBOX.fetch(`http://sandbox.test${path}`, {
    headers: { authorization: `Bearer ${env.API_SECRET}` },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}
