/**
 * What the fault suites share: the sandbox's controls (faults, stats, catalog), calls to the edge worker as a
 * visitor, the set of keys a publisher's pages would have cached, and a tally of what each suite tried.
 */
import { env, SELF } from 'cloudflare:test';
import type { Stats } from '../../demo/sandbox/controls.ts';
import { budgetStub } from '../../worker/budget/client.ts';

export const SECRETS: readonly string[] = [env.API_SECRET, env.GEO_API_KEY, env.ADDRESS_SALT, env.ADMIN_TOKEN, env.V1_SIGNING_SECRET].filter(Boolean);
export const CACHE_HEADER = 'x-reelgate-cache';

const WORKER = 'https://reelgate.test';

// ------------------------------------------------------------------------------------------------- the sandbox

export async function sandbox(path: string, init?: RequestInit): Promise<Response> {
  return env.SANDBOX.fetch(`http://sandbox.test${path}`, init);
}

async function control(path: string, body: unknown): Promise<void> {
  const response = await sandbox(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}: ${await response.text()}`);
  await response.body?.cancel();
}

export interface Faults {
  error_rate?: number;
  latency_ms?: number;
  outage?: boolean;
  force_429?: boolean;
  retry_after_seconds?: number;
}

/** Replaces the sandbox's injected faults (`{}` clears them). */
export const setFaults = (faults: Faults): Promise<void> => control('/_sandbox/faults', faults);
/** A fresh sandbox: seed catalog, zeroed statistics and rate windows, no faults. */
export const resetSandbox = (): Promise<void> => control('/_sandbox/reset', {});

/** A clean world (for one fuzz seed): a fresh sandbox, an empty KV cache and a fresh budget. */
export async function resetWorld(): Promise<void> {
  await resetSandbox();
  let cursor: string | undefined;
  do {
    const page = await env.CACHE.list(cursor ? { cursor } : {});
    await Promise.all(page.keys.map((k) => env.CACHE.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  await budgetStub(env).reset();
}

/**
 * Ids of the seeded catalog that do not depend on today's date (the catalog's media groups do: a scheduled media
 * becomes published as time passes), sorted: the fuzz draws from them, so a seed generates the same requests on any
 * day. Read straight from the sandbox (it seeds deterministically); call it before `resetWorld`, which forgets the call.
 */
export async function stableIds(): Promise<Record<string, string[]>> {
  const sites = (await catalog()).sites;
  const out: Record<string, string[]> = {};
  for (const site of sites) {
    const response = await sandbox(`/v2/sites/${site.id}/media/?page_length=20&sort=created:asc`, {
      headers: { authorization: `Bearer ${env.API_SECRET}` },
    });
    if (!response.ok) throw new Error(`sandbox media list answered ${response.status}: ${await response.text()}`);
    const media = ((await response.json()) as { media: Array<{ id: string }> }).media.map((m) => m.id);
    out[site.id] = [...new Set([...Object.values(site.playlists).flat(), ...site.players, ...media])].sort();
  }
  return out;
}

/** The sandbox's own statistics shape. */
export type SandboxStats = Stats;

export async function stats(): Promise<SandboxStats> {
  return (await sandbox('/_sandbox/stats')).json();
}

/** Calls of the Management API (the budget's `v2` lane), leaving out geo lookups, which have their own budget. */
export function managementCalls(s: SandboxStats): number {
  return Object.entries(s.routes).filter(([route]) => route.includes('/v2/')).reduce((sum, [, n]) => sum + n, 0);
}

export interface CatalogSite {
  id: string;
  playlists: Record<string, string[]>;
  players: string[];
  media: Record<'published' | 'scheduled' | 'expired' | 'unscheduled' | 'not_ready' | 'audio' | 'with_subtitles', string[]>;
}
export interface Catalog {
  sites: CatalogSite[];
  geo: { fixtures: Array<{ ip: string; expected_country: string | null; proxy: unknown; note: string }> };
}

export async function catalog(): Promise<Catalog> {
  return (await sandbox('/_sandbox/catalog')).json();
}

// --------------------------------------------------------------------------------------------------- the worker

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export async function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await SELF.fetch(`${WORKER}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The v2 error body, exactly: `{"errors":[{"code","description"}, ...]}` with non-empty strings. */
export function isV2Error(text: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const errors = (body as { errors?: unknown }).errors;
  return Object.keys(body).length === 1 && Array.isArray(errors) && errors.length > 0 && errors.every((e) =>
    typeof e === 'object' && e !== null && typeof e.code === 'string' && e.code !== '' &&
    typeof e.description === 'string' && e.description !== '');
}

export function errorCode(text: string): string | null {
  try {
    return (JSON.parse(text) as { errors: Array<{ code: string }> }).errors[0]?.code ?? null;
  } catch {
    return null;
  }
}

/** Every secret the worker holds that appears in a body or a header value. */
export function leakedSecrets(answer: { text: string; headers: Headers }): string[] {
  const haystacks = [answer.text, ...[...answer.headers].map(([name, value]) => `${name}: ${value}`)];
  return SECRETS.filter((secret) => haystacks.some((h) => h.includes(secret)));
}

/**
 * Whether an answer carries the same content as one served before. Playback URLs of gated media carry a token whose
 * expiry moves on with the clock (worker/playback/), so the same content is compared with the tokens left out.
 */
export function sameContent(text: string, before: string | undefined): boolean {
  const untokened = (body: string) => body.replace(/\/api\/play\/[A-Za-z0-9_-]+\//g, '/api/play/<token>/');
  return before !== undefined && untokened(text) === untokened(before);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// --------------------------------------------------------------------------------------------- cached world

/** Countries whose visitors the shipped `europe` policy lets in. */
const EUROPEAN = new Set(['GB', 'IE', 'DE', 'FR', 'NL', 'SE', 'ES', 'IT']);

export interface World {
  /** Every path a publisher's pages would have fetched: each playlist's feed, each player, some media. */
  keys: string[];
  /** Paths of the same kinds that were never asked for before (new keys). */
  unseen: string[];
  /** European visitors allowed by every shipped policy (after `fill`), one per request in turn. */
  visitors: string[];
}

/**
 * The keys of the configured sites in the sandbox's seed. Feeds and players of every configured site, two
 * published media per site; the unseen keys are other published media and a feed variant. A site that signs its
 * delivery URLs (`url_signing`) is left out: its answers cost the upstream what any site's do, its own suite
 * (test/worker/url-signing.test.ts) covers it, and the budget arithmetic of these suites (how many misses one window
 * funds under injected latency) is the two unsigned catalogs'.
 */
export async function describeWorld(configured: Readonly<Record<string, { url_signing?: unknown }>>): Promise<World> {
  const seed = await catalog();
  const sites = seed.sites.filter((site) => configured[site.id] && !configured[site.id]!.url_signing);
  if (sites.length === 0) throw new Error('none of the sandbox sites is configured in wrangler.toml');
  const keys: string[] = [];
  const unseen: string[] = [];
  for (const site of sites) {
    for (const id of Object.values(site.playlists).flat()) keys.push(`/api/sites/${site.id}/playlists/${id}`);
    for (const id of site.players) keys.push(`/api/sites/${site.id}/players/${id}`);
    const published = site.media.published;
    for (const id of published.slice(0, 2)) keys.push(`/api/sites/${site.id}/media/${id}`);
    for (const id of published.slice(2, 4)) unseen.push(`/api/sites/${site.id}/media/${id}`);
  }
  // `seed` is taken by recommendations playlists only (others answer 400).
  const recommendations = sites[0]!.playlists.recommendations?.[0];
  if (recommendations) unseen.push(`/api/sites/${sites[0]!.id}/playlists/${recommendations}?seed=${sites[0]!.media.published[0]}`);
  // Candidates; `fill` keeps those every shipped policy lets in.
  const visitors = seed.geo.fixtures
    .filter((f) => f.expected_country !== null && EUROPEAN.has(f.expected_country))
    .map((f) => f.ip);
  return { keys, unseen, visitors };
}

let turn = 0;
/** Headers of the next visitor (DEV_MODE is on in the fault projects, so the dev header names the address). */
export function nextVisitor(world: World): Record<string, string> {
  const ip = world.visitors[turn++ % world.visitors.length]!;
  return { 'x-reelgate-dev-ip': ip };
}

/**
 * Keeps the visitors every policy lets in (asking the gates also caches their locations, which the policy-bound
 * site needs on every read), then asks for every key until each has been served once (a 429 from the budget means
 * "later"), as a publisher's traffic would fill the cache. Returns the body served per key. Bounded by `deadlineMs`.
 */
export async function fill(world: World, policies: readonly string[], deadlineMs: number): Promise<Map<string, string>> {
  const served = new Map<string, string>();
  const end = Date.now() + deadlineMs;
  const allowed: string[] = [];
  for (const ip of world.visitors) {
    let ok = true;
    for (const policy of policies) {
      const gate = await get(`/api/gate/${policy}`, { 'x-reelgate-dev-ip': ip });
      ok &&= gate.status === 200 && (JSON.parse(gate.text) as { allowed: boolean }).allowed;
    }
    if (ok) allowed.push(ip);
  }
  if (allowed.length < 4) throw new Error(`only ${allowed.length} European fixture visitors pass every policy`);
  world.visitors = allowed;
  while (served.size < world.keys.length && Date.now() < end) {
    let waitMs = 0;
    for (const key of world.keys) {
      if (served.has(key)) continue;
      const answer = await get(key, nextVisitor(world));
      if (answer.status === 200) served.set(key, answer.text);
      else if (answer.status === 429) waitMs = Math.max(waitMs, Math.min(3, Number(answer.headers.get('retry-after')) || 1) * 1000);
      else throw new Error(`${key} answered ${answer.status} while filling the cache: ${answer.text}`);
    }
    if (waitMs) await sleep(waitMs);
  }
  if (served.size < world.keys.length) throw new Error(`only ${served.size} of ${world.keys.length} keys were served in time`);
  return served;
}


// --------------------------------------------------------------------------------------------------------- tally

export interface Tally {
  suite: string;
  requests: number;
  faults: number;
  fuzzCases: number;
  failed: number;
}

export function tally(suite: string): Tally {
  return { suite, requests: 0, faults: 0, fuzzCases: 0, failed: 0 };
}

/** One line per suite; test/faults/tally-reporter.mjs adds them up at the end of the run. */
export function printTally(t: Tally): void {
  console.log(`faults-tally ${JSON.stringify(t)}`);
}
