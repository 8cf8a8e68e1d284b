/** Shared steps of the edge-worker suites: a clean world per test, calls as a visitor, the sandbox's counters. */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { expect } from 'vitest';
import { clearMemoryCache } from '../../worker/cache/cached.ts';
import { budgetStub } from '../../worker/budget/client.ts';
import { memberRulesOf, selects } from '../../worker/catalog/member-rules.ts';
import { readRules } from '../../worker/catalog/playlist-rules.ts';
import type { MediaList, PlaylistList, PlaylistType, TypedPlaylist } from '../../worker/contract/v2-types.ts';
import type { Env } from '../../worker/env.ts';
import worker from '../../worker/index.ts';

export interface TestConfig {
  sites: Record<string, { policy?: string; playlists?: Record<string, string>; media?: Record<string, string> }>;
  allowed_origins: string[];
}
export const config = JSON.parse(env.REELGATE_CONFIG) as TestConfig;
const siteIds = Object.keys(config.sites);
/** The seeded site without a site-wide policy, and the one bound to `europe`. */
export const SITE = siteIds.find((id) => !config.sites[id]!.policy)!;
export const EUROPE_SITE = siteIds.find((id) => config.sites[id]!.policy === 'europe')!;
export const ALLOWED_ORIGIN = config.allowed_origins[0]!;

export const SECRETS = [env.API_SECRET, env.GEO_API_KEY, env.ADDRESS_SALT];

/** A visitor every test policy allows: Manchester (GB, Europe), no proxy (demo/sandbox/geo-fixtures.ts). */
export const DEFAULT_IP = '192.0.2.11';

export async function sandbox(path: string, init?: RequestInit): Promise<Response> {
  return env.SANDBOX.fetch(`http://sandbox.test${path}`, init);
}

export async function resetWorld(rateLimitPerMinute?: number): Promise<void> {
  const reset = await sandbox('/_sandbox/reset', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rateLimitPerMinute ? { rate_limit_per_minute: rateLimitPerMinute } : {}),
  });
  expect(reset.ok).toBe(true);
  await reset.body?.cancel();
  const faults = await sandbox('/_sandbox/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(faults.ok).toBe(true);
  await faults.body?.cancel();
  let cursor: string | undefined;
  do {
    const page = await env.CACHE.list(cursor ? { cursor } : {});
    await Promise.all(page.keys.map((k) => env.CACHE.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  clearMemoryCache();
  await budgetStub(env).reset();
}

export interface SandboxStats {
  calls: Record<string, number>;
  total: number;
  rate_limited: number;
  auth_failures: number;
  last_authorization_sha256: string | null;
  /** Calls to the Delivery API (outside the Management API's counts and rate window). */
  delivery_calls: number;
}

/** The sandbox's counters, normalised to what these suites read. */
export async function stats(): Promise<SandboxStats> {
  const raw = (await (await sandbox('/_sandbox/stats')).json()) as Record<string, unknown>;
  return normaliseStats(raw);
}

export function normaliseStats(raw: Record<string, unknown>): SandboxStats {
  const calls = (raw.routes ?? {}) as Record<string, number>;
  const total = Number(raw.total_calls);
  return {
    calls,
    total,
    rate_limited: Number(raw.rate_limited),
    auth_failures: Number(raw.auth_failures),
    last_authorization_sha256: (raw.last_authorization_sha256 as string | null) ?? null,
    delivery_calls: Number(raw.delivery_calls),
  };
}

/** Upstream calls whose route label mentions every fragment given. */
export function callsTo(s: SandboxStats, ...fragments: string[]): number {
  return Object.entries(s.calls)
    .filter(([route]) => fragments.every((f) => route.includes(f)))
    .reduce((sum, [, n]) => sum + n, 0);
}

export async function catalog(): Promise<any> {
  return (await sandbox('/_sandbox/catalog')).json();
}

export function api(path: string, init: RequestInit & { ip?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const ip = init.ip === undefined ? DEFAULT_IP : init.ip;
  if (ip !== null && !headers.has('x-reelgate-dev-ip')) headers.set('x-reelgate-dev-ip', ip);
  return SELF.fetch(`http://localhost${path}`, { ...init, headers });
}

/** Asserts the v2 error body with this status and code, and that nothing secret rides along. */
export async function expectError(response: Response, status: number, code: string): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(JSON.parse(text)).toEqual({ errors: [{ code, description: expect.any(String) }] });
  expectNoSecret(response, text);
}

export function expectNoSecret(response: Response, text: string): void {
  const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  for (const secret of SECRETS) {
    expect(text).not.toContain(secret);
    expect(headerText).not.toContain(secret);
  }
  expect(headerText.toLowerCase()).not.toContain('authorization');
}

/** Polls until `check` holds (background work such as a stale refresh), failing after a bounded number of tries. */
export async function eventually(check: () => Promise<boolean>, tries = 50): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never held');
}

/**
 * The playlists of `site` the test configuration binds to a policy, each read as the default visitor (whom every test
 * policy allows): what the worker holds as their members afterwards, and their ids. Warming them first keeps a test's
 * own upstream counts about its own request.
 */
export async function boundPlaylists(site: string, except: readonly string[] = []): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  for (const id of Object.keys(config.sites[site]!.playlists ?? {})) {
    if (except.includes(id)) continue;
    const response = await api(`/api/sites/${site}/playlists/${id}?page_length=50`);
    expect(response.status, `bound playlist ${id}`).toBe(200);
    members.set(id, ((await response.json()) as { items: Array<{ id: string }> }).items.map((item) => item.id));
  }
  return members;
}

/**
 * Media of `site` under some policy: its own, or a bound playlist's (worker/docs/geo-and-playback.md, "What binds a
 * media"): a manual playlist's whole list, a filtered one's pinned media and every media its rules select, as the
 * platform keeps them.
 */
export async function boundMediaIds(site: string): Promise<Set<string>> {
  const bound = new Set(Object.keys(config.sites[site]!.media ?? {}));
  // Read through the worker first, as the default visitor: a test's own upstream counts stay about its own request.
  await boundPlaylists(site);
  const v2 = async <T>(path: string): Promise<T> =>
    (await sandbox(`/v2/sites/${site}/${path}`, { headers: { authorization: `Bearer ${env.API_SECRET}` } })).json<T>();
  const everything = (await v2<MediaList>('media/?page_length=1000')).media;
  const listed = (await v2<PlaylistList>('playlists/?page_length=100')).playlists;
  for (const id of Object.keys(config.sites[site]!.playlists ?? {})) {
    const type = listed.find((p) => p.id === id)!.playlist_type;
    const rules = readRules(id, type, (await v2<TypedPlaylist>(`playlists/${id}/${type}_playlist/`)).metadata);
    if (rules.type === 'manual') for (const member of rules.ids) bound.add(member);
    if (!('includeTags' in rules)) continue;
    for (const member of rules.pinned) bound.add(member);
    for (const media of everything) {
      const facts = { tags: media.metadata.tags ?? [], custom_params: media.metadata.custom_params ?? {} };
      if (selects(memberRulesOf(rules), facts)) bound.add(media.id);
    }
  }
  return bound;
}

/**
 * The worker with its configuration changed by `edit` (a playlist bound that the suite's configuration leaves free),
 * called directly as the visitor at `ip`.
 */
export async function withConfig(edit: (c: TestConfig) => void, path: string, ip: string): Promise<Response> {
  const changed = structuredClone(config);
  edit(changed);
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://localhost${path}`, { headers: { 'x-reelgate-dev-ip': ip } }),
    { ...env, REELGATE_CONFIG: JSON.stringify(changed) } as Env, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
}

/** A fresh world with `count` more ready videos in `site` (the sandbox's `extra_media`): their ids, oldest first. */
export async function resetWithExtraMedia(site: string, count: number): Promise<string[]> {
  await resetWorld();
  const reset = await sandbox('/_sandbox/reset', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rate_limit_per_minute: 100_000, extra_media: { [site]: count } }),
  });
  expect(reset.status).toBe(200);
  return (await reset.json<{ extra_media: Record<string, string[]> }>()).extra_media[site]!;
}

/** A playlist made in the sandbox as an editor would make it (its title named by its type), in SITE: its id. */
export async function createPlaylist(type: PlaylistType, metadata: Record<string, unknown>): Promise<string> {
  const response = await sandbox(`/v2/sites/${SITE}/playlists/${type}_playlist/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { title: `Made ${type}`, ...metadata } }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}
