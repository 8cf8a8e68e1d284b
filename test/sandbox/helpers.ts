// Shared by the sandbox suites: calls through the service binding, the sandbox credentials, and the seeded catalog.
import { env } from 'cloudflare:test';
import { expect } from 'vitest';

export const ORIGIN = 'http://sandbox.test';
export const SECRET = 'sandbox-api-secret-not-for-production';
export const GEO_KEY = 'sandbox-geo-key-not-for-production';
/** The SIGNED_SITE_SECRET binding: the URL signing secret of the seeded signing site. */
export const SIGNING_SECRET = 'sandbox-url-signing-secret-not-for-production';

export interface SiteCatalog {
  id: string;
  name: string;
  media_total: number;
  playlists: Record<string, string[]>;
  players: string[];
  media: Record<'published' | 'scheduled' | 'expired' | 'unscheduled' | 'not_ready' | 'audio' | 'with_subtitles', string[]>;
  url_signing: { enforce: boolean; secret_source: 'SIGNED_SITE_SECRET' | 'derived' };
}
export interface Catalog {
  sites: SiteCatalog[];
  geo: { fixtures: Array<{ ip: string; note: string; expected_country: string | null; proxy: unknown }> };
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
  headers?: Record<string, string>;
  /** Leave out the Authorization header. */
  anonymous?: boolean;
}

/** A v2 call with the sandbox secret (unless told otherwise) and a JSON body when one is given. */
export function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (!options.anonymous) headers.authorization = `Bearer ${SECRET}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  return env.SANDBOX.fetch(`${ORIGIN}${path}`, { method, headers: { ...headers, ...options.headers }, body });
}

export async function callJson<T = any>(method: string, path: string, options: CallOptions = {}): Promise<{ status: number; body: T; response: Response }> {
  const response = await call(method, path, options);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, response };
}

export async function reset(options: { rate_limit_per_minute?: number } = {}): Promise<void> {
  const response = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/reset`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(options),
  });
  if (response.status !== 200) throw new Error(`reset failed: ${response.status} ${await response.text()}`);
}

export async function catalog(): Promise<Catalog> {
  return (await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/catalog`)).json();
}

/** The big seeded site (site 0) and the small one. */
export async function sites(): Promise<{ big: SiteCatalog; small: SiteCatalog }> {
  const { sites: list } = await catalog();
  return { big: list[0]!, small: list[1]! };
}

export async function control(method: string, path: string, body?: unknown): Promise<Response> {
  return env.SANDBOX.fetch(`${ORIGIN}/_sandbox/${path}`, {
    method, headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Processing of uploads: how long it takes (`seconds`), or `{ finish: true }` to end every pending one now. */
export async function setProcessing(options: { seconds?: number; finish?: boolean }): Promise<{ seconds: number; pending: unknown[] }> {
  const response = await control('POST', 'processing', options);
  if (response.status !== 200) throw new Error(`processing control failed: ${response.status} ${await response.text()}`);
  return response.json();
}

export const errorShape = (code: string) => ({ errors: [{ code, description: expect.any(String) }] });
