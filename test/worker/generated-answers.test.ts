// The platform may answer anything its published definition allows, not only what the seed holds: nulls, empty and
// very long strings, `javascript:` links, every enum value, hundreds of ids. For each resource the public API reads,
// hundreds of such answers (generated-answers.ts, fixed seeds: the same every run) are scripted into the sandbox
// (/_sandbox/scripted; a media as the Delivery API and its text tracks as the Management API would answer it)
// and the worker's answer is held to its promises: a documented public shape with 200, or a named
// v2 error that is neither 500 nor a stack trace; never a platform secret; and never a 200 with content to a visitor
// a policy refuses it to (a bound playlist's feed, a media its manual list or its rules select, a player setting that
// names bound content, a playback URL's bytes).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { clearMemoryCache } from '../../worker/cache/index.ts';
import { cacheKeys } from '../../worker/catalog/index.ts';
import type { FeedResponse, MediaResponse, PlayerResponse } from '../../worker/contract/public-api.ts';
import type { Env } from '../../worker/env.ts';
import worker from '../../worker/index.ts';
import {
  type Context, enumCoverage, type FeedWorld, feedWorlds, freshId, type MediaWorld, mediaWorlds, type Part, type PlaybackWorld,
  playbackWorlds, type PlayerWorld, playerWorlds, type PlaylistAnswers, redrawn, ROUTE, violations,
} from './generated-answers.ts';
import { config, EUROPE_SITE, expectNoSecret, resetWorld, sandbox, SITE } from './helpers.ts';

/**
 * Answers per resource, and the seeds: fixed, so a run never fails by luck (a failure names its seed and run). To hunt
 * others, `VITE_GENERATED_ANSWERS_SEED=random` (or a number) runs from that seed; the summary prints the seeds used.
 */
const RUNS = 500;
const HUNT = (import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_GENERATED_ANSWERS_SEED;
const BASE = HUNT === 'random' ? Math.floor(Math.random() * 2 ** 31) : HUNT ? Number(HUNT) : null;
const SEEDS = BASE === null || !Number.isSafeInteger(BASE)
  ? { media: 20260701, feed: 20260702, player: 20260703, playback: 20260704 }
  : { media: BASE, feed: BASE + 1, player: BASE + 2, playback: BASE + 3 };

/** Manchester and London: allowed by every test policy (`gb-only`, `not-us`, `europe`). */
const ALLOWED = ['192.0.2.11', '192.0.2.10'];
/** New York and San Francisco: refused by `gb-only` and `not-us`, and (with Tokyo) by `europe`. */
const REFUSED = ['192.0.2.20', '192.0.2.21'];
const REFUSED_EUROPE = ['192.0.2.20', '192.0.2.50', '192.0.2.21'];
const DELIVERY = 'http://sandbox.test';
const ALLOWLIST = (config as unknown as { custom_params_allowlist: string[] }).custom_params_allowlist;
const BOUND = Object.keys(config.sites[SITE]!.playlists ?? {});
/** The worker itself, without the per-visitor abuse limit: thousands of calls from two visitors are what this is. */
const WORKER_ENV = { ...env, VISITOR_LIMIT: undefined } as unknown as Env;
const authorised = { authorization: `Bearer ${env.API_SECRET}` };

// ---------------------------------------------------------------------------------------------------------- calls

interface Answer {
  status: number;
  text: string;
  response: Response;
  bytes: number;
}

/** One request of a visitor to the worker, every background task of it finished before the next case starts. */
async function call(path: string, ip: string, headers: Record<string, string> = {}): Promise<Answer> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://localhost${path}`, { headers: { 'x-reelgate-dev-ip': ip, ...headers } }),
    WORKER_ENV, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  const type = response.headers.get('content-type') ?? '';
  const text = /json|text|mpegurl|vtt/i.test(type) ? new TextDecoder().decode(body) : '';
  return { status: response.status, text, response, bytes: body.byteLength };
}

interface Script {
  route: string;
  params: Record<string, string>;
  status?: number;
  body: unknown;
}

/** Scripts set since the sandbox's were last cleared (it keeps at most 100). */
let scripts = 0;

/** Sets the sandbox's answers (one control call for them all), or (none given) clears every one. */
async function scripted(...list: Script[]): Promise<void> {
  const response = await sandbox('/_sandbox/scripted', {
    method: list.length ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(list.length ? { scripts: list } : {}),
  });
  if (response.status !== 200) throw new Error(`scripting failed: ${response.status} ${await response.text()}`);
  await response.body?.cancel();
  scripts = list.length ? scripts + list.length : 0;
}

const SANDBOX_ROUTE = {
  media: 'GET /v2/sites/:site/media/:media/',
  renditions: 'GET /v2/sites/:site/media/:media/media_renditions/',
  tracks: 'GET /v2/sites/:site/media/:media/text_tracks/',
  player: 'GET /v2/sites/:site/players/:player/',
  playlist: 'GET /v2/sites/:site/playlists/:playlist/',
  typed: 'GET /v2/sites/:site/playlists/:playlist/:playlist_type/',
  delivery: 'GET /v2/media/:media',
  deliveryPlaylist: 'GET /v2/playlists/:playlist',
};

/**
 * The visitors' part of the test budget's burst (vitest.config.mts: 30, less the gateway's 30 %): a batch of cases
 * that could need more would wait, or be refused, by how fast the machine is.
 */
const VISITOR_BURST = 21;
let callsAtRefill = -Infinity;

/**
 * A fresh world: every case asks for fresh ids with scripts of their own, so between cases only `keys` (what cases
 * share) leave KV and the worker's memory, and the budget object's memory of recent reads (which would hand a case
 * the read of the case before). The scripts are cleared before the sandbox's limit of them is near (`scriptsAhead`:
 * what the next batch sets), and the budget is refilled before the next batch could find it short (`callsAhead`: the
 * upstream calls it may make).
 */
async function freshWorld(keys: readonly string[] = [], { scriptsAhead = 8, callsAhead = 12 } = {}): Promise<{ cleared: boolean }> {
  const cleared = scripts + scriptsAhead > 90;
  if (cleared) await scripted();
  if (keys.length) {
    await Promise.all(keys.map((key) => env.CACHE.delete(key)));
    clearMemoryCache();
  }
  const calls = Number(((await (await sandbox('/_sandbox/stats')).json()) as { total_calls: number }).total_calls);
  if (keys.length || calls < callsAtRefill || calls - callsAtRefill + callsAhead > VISITOR_BURST) {
    await budgetStub(env).reset();
    callsAtRefill = calls;
  }
  return { cleared };
}

// ------------------------------------------------------------------------------------------------------ verdicts

type Tally = Map<string, number>;
const summary = new Map<string, Tally>();
const coverage = new Map<string, string>();

function count(resource: string, outcome: string): void {
  const tally = summary.get(resource) ?? new Map<string, number>();
  tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
  summary.set(resource, tally);
}

/** What a failed case says: the seed and run that replay it, and what was wrong. */
class CaseFailure extends Error {}
function fail(where: string, why: string, answer?: Answer): never {
  throw new CaseFailure(`${where}: ${why}${answer ? ` (got ${answer.status}: ${answer.text.slice(0, 600)})` : ''}`);
}

/**
 * Either a named v2 error (not 500, no stack trace) or a success status of `success` (a JSON resource's: 200, as
 * JSON); returns the code, or `ok`. Checks that no secret rides along.
 */
function judge(where: string, answer: Answer, success: readonly number[] = [200]): string {
  expectNoSecret(answer.response, answer.text);
  if (answer.status < 400) {
    if (!success.includes(answer.status)) fail(where, `status ${answer.status}`, answer);
    if (success.length === 1 && !/^application\/json\b/.test(answer.response.headers.get('content-type') ?? '')) {
      fail(where, 'a 200 that is not JSON', answer);
    }
    return 'ok';
  }
  if (answer.status === 500) fail(where, 'a 500', answer);
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail(where, 'an error that is not the v2 error body', answer);
  }
  const errors = body?.errors;
  if (!Array.isArray(errors) || errors.length !== 1 || Object.keys(body).length !== 1
    || typeof errors[0]?.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(errors[0].code)
    || typeof errors[0]?.description !== 'string' || Object.keys(errors[0]).length !== 2) {
    fail(where, 'an error that is not {"errors":[{"code","description"}]}', answer);
  }
  if (/\n\s+at |\bError:|TypeError|\.ts:\d+/.test(errors[0].description)) fail(where, 'a stack trace in an error', answer);
  return errors[0].code as string;
}

const outcome = (who: string, answer: Answer, code: string) => `${who} ${answer.status}${code === 'ok' ? '' : ` ${code}`}`;

/** The value as the worker reads it: through JSON (a `-0` is 0, a `__proto__` member an own member). */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A world with its answers as the worker reads them (its parts, for the enum checks, as drawn). */
function asRead<W extends { parts: Part[] }>(world: W, ...members: Array<keyof W>): W {
  const out = { ...world };
  for (const member of members) out[member] = viaJson(world[member]);
  return out;
}

const isHttp = (url: unknown): boolean => {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return false;
  try {
    const parsed = new URL(url);
    return !parsed.username && !parsed.password;
  } catch {
    return false;
  }
};
const isPlayback = (url: unknown): boolean => typeof url === 'string' && /^\/api\/play\/[A-Za-z0-9_.~-]+\/[A-Za-z0-9_.~-]+$/.test(url);

/** Published now, by the platform's documented fields: ready, a start in the past, no end or one still ahead. */
function playable(media: any, now = Date.now()): boolean {
  const start = Date.parse(media.metadata.publish_start_date ?? '');
  const end = media.metadata.publish_end_date === null ? Infinity : Date.parse(media.metadata.publish_end_date);
  return media.status === 'ready' && Number.isFinite(start) && start <= now && end > now;
}

const FEED_ITEM_KEYS = ['custom_params', 'description', 'duration', 'id', 'media_type', 'permalink', 'publish_end_date',
  'publish_start_date', 'tags', 'thumbnail', 'thumbnails', 'title'];

function expectKeys(where: string, value: unknown, keys: readonly string[]): void {
  const got = value && typeof value === 'object' ? Object.keys(value).sort() : [];
  const want = [...keys].sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) fail(where, `keys ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
}

const nullOr = (value: unknown, type: string) => value === null || typeof value === type;

/** A feed item or the item part of a media answer: the documented members with their types. */
function checkItem(where: string, item: any, bound: boolean): void {
  const ok = typeof item.id === 'string' && typeof item.title === 'string' && nullOr(item.description, 'string')
    && (item.duration === null || Number.isFinite(item.duration))
    && Array.isArray(item.tags) && item.tags.every((t: unknown) => typeof t === 'string')
    && nullOr(item.publish_start_date, 'string') && nullOr(item.publish_end_date, 'string')
    && ['video', 'audio', 'unknown'].includes(item.media_type)
    && (item.permalink === null || isHttp(item.permalink))
    && (item.thumbnail === null || (bound ? isPlayback(item.thumbnail) : isHttp(item.thumbnail)))
    && Array.isArray(item.thumbnails) && item.thumbnails.every((t: any) => (bound ? isPlayback(t.url) : isHttp(t.url))
      && Number.isInteger(t.width) && t.width > 0)
    && typeof item.custom_params === 'object' && item.custom_params !== null
    && Object.entries(item.custom_params).every(([k, v]) => ALLOWLIST.includes(k) && typeof v === 'string');
  if (!ok) {
    const why = bound ? ' (under a policy: playback URLs only)' : '';
    fail(where, `an item not of the documented shape${why}: ${JSON.stringify(item).slice(0, 800)}`);
  }
}

/** The custom params an answer may show: the allowlisted ones with string values. */
function shown(params: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(ALLOWLIST.filter((k) => Object.hasOwn(params, k) && typeof params[k] === 'string')
    .map((k) => [k, params[k] as string]));
}

// ------------------------------------------------------------------------------------------------------- context

let context: Context;
/** The real rules of the plain site's bound playlists, as the seed has them (the media and player cases meet them). */
let realBound: PlaylistAnswers[] = [];

beforeAll(async () => {
  await resetWorld(100_000);
  const v2 = async (path: string) => (await sandbox(`/v2/sites/${path}`, { headers: authorised })).json<any>();
  const listed = (await v2(`${SITE}/playlists/?page_length=100`)).playlists as Array<{ id: string; playlist_type: string }>;
  realBound = await Promise.all(BOUND.map(async (id) => {
    const untyped = listed.find((p) => p.id === id)!;
    const type = untyped.playlist_type as PlaylistAnswers['type'];
    return { id, type, untyped, typed: type === 'watchlist' ? null : await v2(`${SITE}/playlists/${id}/${type}_playlist/`) };
  }));
  const tags = new Set<string>();
  const params: Record<string, string> = {};
  for (const { typed } of realBound) {
    for (const side of ['include', 'exclude']) {
      for (const tag of typed?.metadata?.tag_filter?.[side]?.values ?? []) tags.add(tag);
      Object.assign(params, typed?.metadata?.custom_param_filter?.[side]?.values ?? {});
    }
  }
  // A published video of the europe site with renditions and text tracks: the real files the playback cases name.
  const media = (await v2(`${EUROPE_SITE}/media/?page_length=100`)).media as any[];
  let real: Context['real'] | undefined;
  for (const candidate of media.filter((m) => playable(m) && m.media_type === 'video')) {
    const renditions = (await v2(`${EUROPE_SITE}/media/${candidate.id}/media_renditions/`)).media_renditions as any[];
    const tracks = (await v2(`${EUROPE_SITE}/media/${candidate.id}/text_tracks/`)).text_tracks as any[];
    const files = tracks.map((t) => t.delivery_url).filter(Boolean);
    if (renditions.length && files.length) {
      real = { id: candidate.id, renditions: renditions.map((r) => r.delivery_url), tracks: files };
      break;
    }
  }
  if (!real) throw new Error('no published video with renditions and tracks in the europe site');
  const other = media.find((m) => m.id !== real.id)!;
  context = {
    delivery: DELIVERY, site: SITE, europeSite: EUROPE_SITE, bound: BOUND, tags: [...tags], params, real,
    foreign: `${DELIVERY}/manifests/${other.id}.m3u8`,
  };
}, 60_000);

afterAll(() => {
  const lines = ['generated platform answers (seeds ' + JSON.stringify(SEEDS) + `, ${RUNS} per resource):`];
  for (const [resource, tally] of summary) {
    lines.push(`  ${resource}: ${[...tally].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  }
  for (const [resource, text] of coverage) lines.push(`  ${resource} enums: ${text}`);
  if (redrawn.size) lines.push(`  answers drawn again to conform: ${[...redrawn].map(([r, n]) => `${r} ×${n}`).join(', ')}`);
  console.log(lines.join('\n'));
});

/** Every enum value the definition lists was met over the resource's answers (the generator's promise). */
function expectEveryEnumValue(resource: string, parts: readonly Part[]): void {
  const missing: string[] = [];
  let sites = 0;
  for (const [key, { values, seen }] of enumCoverage(parts)) {
    sites++;
    const unmet = values.filter((v) => !seen.has(JSON.stringify(v)));
    if (unmet.length) missing.push(`${key}: ${unmet.join(', ')}`);
  }
  coverage.set(resource, `${sites} enum members, every value met${missing.length ? ` but ${missing.length}` : ''}`);
  expect(missing).toEqual([]);
}

interface RunOptions<W> {
  /** Worlds run side by side: they ask for ids of their own, with scripts of their own. */
  concurrency: number;
  /** What a batch needs before it starts (freshWorld). */
  prepare: (batch: readonly W[]) => Promise<unknown>;
  /** A world that shares something with others of its kind: at most one of them per batch. */
  exclusive?: (world: W) => boolean;
}

/** Runs every world, in batches; a failure names its seed and run, and the suite stops after the first few. */
async function runAll<W extends { run: number }>(resource: string, seed: number, list: readonly W[],
  { concurrency, prepare, exclusive = () => false }: RunOptions<W>, one: (world: W) => Promise<void>) {
  const failures: string[] = [];
  const batches: W[][] = [];
  for (const world of list) {
    const last = batches.at(-1);
    if (last && last.length < concurrency && !(exclusive(world) && last.some(exclusive))) last.push(world);
    else batches.push([world]);
  }
  for (const batch of batches) {
    await prepare(batch);
    await Promise.all(batch.map(async (world) => {
      try {
        await one(world);
      } catch (error) {
        if (!(error instanceof CaseFailure) && !(error instanceof Error && error.name === 'AssertionError')) throw error;
        failures.push(`seed ${seed} run ${world.run}: ${(error as Error).message}`);
        count(resource, 'FAILED');
      }
    }));
    if (failures.length >= 5) break;
  }
  expect(failures).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------- media

/** The policies' rules on a media's facts (tags, custom params), as the definition's filter members say. */
function selectedBy(typed: any, facts: { tags: string[]; custom_params: Record<string, string> }): boolean {
  const m = typed.metadata;
  const tags = (filter: any) => {
    const values: string[] = filter.values;
    if (!values.length) return true;
    return filter.match === 'all' ? values.every((t) => facts.tags.includes(t)) : values.some((t) => facts.tags.includes(t));
  };
  const params = (filter: any) => {
    const wanted = Object.entries(filter.values as Record<string, string>);
    if (!wanted.length) return true;
    const hit = ([k, v]: [string, string]) => Object.hasOwn(facts.custom_params, k) && facts.custom_params[k] === v;
    return filter.match === 'all' ? wanted.every(hit) : wanted.some(hit);
  };
  const some = (filter: any) => (Array.isArray(filter.values) ? filter.values.length : Object.keys(filter.values).length) > 0;
  return tags(m.tag_filter.include) && !(some(m.tag_filter.exclude) && tags(m.tag_filter.exclude))
    && params(m.custom_param_filter.include) && !(some(m.custom_param_filter.exclude) && params(m.custom_param_filter.exclude));
}

/** Whether a bound playlist binds a media: its manual list, its pinned slots, or (filtered) its rules on the facts. */
function binds(playlist: PlaylistAnswers, id: string, facts?: { tags: string[]; custom_params: Record<string, string> }): boolean {
  if (playlist.type === 'watchlist' || !playlist.typed) return false;
  const m = playlist.typed.metadata;
  if (playlist.type === 'manual') return (m.media_filter.include.values as string[]).includes(id);
  if ([m.pinning.slot1, m.pinning.slot2].includes(id)) return true;
  return facts !== undefined && selectedBy(playlist.typed, facts);
}

const factsOf = (media: any) => ({ tags: media.metadata.tags as string[], custom_params: media.metadata.custom_params });

/** MIME type by a rendition's `format`, as the platform's delivery side states it (the table's own entries only). */
const MIME_BY_FORMAT: Readonly<Record<string, string>> = { mp4: 'video/mp4', m4a: 'audio/mp4', m3u8: 'application/vnd.apple.mpegurl',
  webm: 'video/webm', mp3: 'audio/mpeg', aac: 'audio/aac' };

/**
 * What the platform's Delivery API answers for a generated media (`GET /v2/media/<id>`): made from the same drawn
 * answers, as the platform's two APIs agree. Not published now: 404. Else the media's fields, its ready renditions
 * (every drawn `delivery_url`, `javascript:` and foreign files included: the worker must judge them), the HLS manifest
 * first for a video, its ready text tracks and the storyboard. Only what the delivery answer's documented shape can
 * carry (string custom params, whole seconds), so the conformance gate lets it through.
 */
function deliveryOf(world: Pick<MediaWorld, 'id' | 'media' | 'renditions' | 'tracks'>): { status: number; body: unknown } {
  const { media } = world;
  if (!playable(media)) return { status: 404, body: { errors: [{ code: 'not_found', description: 'Not published.' }] } };
  const m = media.metadata;
  const ready = (renditionsOf(world)).filter((r) => r.status === 'ready' && typeof r.delivery_url === 'string' && r.delivery_url !== '');
  const video = media.media_type === 'video';
  const manifest = `${DELIVERY}/manifests/${world.id}.m3u8`;
  const files = ready.filter((r) => r.delivery_url !== manifest).map((r) => {
    const format = typeof r.format === 'string' ? r.format : '';
    // A format the table does not know is stated as bytes of no known kind (a MIME type either way, as documented).
    const source: Record<string, unknown> = {
      file: r.delivery_url, type: Object.hasOwn(MIME_BY_FORMAT, format) ? MIME_BY_FORMAT[format] : 'application/octet-stream',
    };
    if (Number.isInteger(r.width) && r.width > 0) source.width = r.width;
    if (Number.isInteger(r.height) && r.height > 0) source.height = r.height;
    if (Number.isInteger(r.filesize) && r.filesize >= 0) source.filesize = r.filesize;
    return source;
  });
  const sources = video && ready.length ? [{ file: manifest, type: 'application/vnd.apple.mpegurl' }, ...files] : files;
  const tracks = [
    ...(video && sources.length ? [{ file: `${DELIVERY}/strips/${world.id}-120.vtt`, kind: 'thumbnails' }] : []),
    ...(world.tracks.text_tracks as any[]).filter((t) => t.status === 'ready' && typeof t.delivery_url === 'string' && t.delivery_url !== '')
      .map((t) => ({ file: t.delivery_url, kind: t.track_kind, label: String(t.metadata?.label ?? '') })),
  ];
  const custom = Object.fromEntries(Object.entries((m.custom_params ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string'));
  const poster = (width: number) => `${DELIVERY}/v2/media/${world.id}/poster.jpg?width=${width}`;
  return {
    status: 200,
    body: {
      title: m.title, description: m.description ?? '', kind: 'Single Item',
      playlist: [{
        mediaid: world.id, title: m.title, description: m.description ?? '', pubdate: Math.floor(Date.parse(m.publish_start_date) / 1000),
        tags: (m.tags as string[]).join(', '), image: poster(720),
        images: [320, 480, 640, 720, 1280, 1920].map((width) => ({ src: poster(width), width, type: 'image/jpeg' })),
        duration: typeof media.duration === 'number' && media.duration > 0 ? Math.round(media.duration) : 0,
        link: typeof m.permalink === 'string' && m.permalink !== '' ? m.permalink : `${DELIVERY}/previews/${world.id}`,
        custom, sources, tracks,
      }],
    },
  };
}

/** The tags a media answer shows: the delivery answer's comma-separated list, read back. */
const deliveredTags = (media: any): string[] => (media.metadata.tags as string[]).join(', ').split(',').map((t) => t.trim()).filter(Boolean);

/** A media's scripts: its delivery answer, and its text tracks (the one Management call: their languages). */
function mediaScripts(site: string, world: Pick<MediaWorld, 'id' | 'media' | 'renditions' | 'tracks'>): Script[] {
  const delivery = deliveryOf(world);
  return [{ route: SANDBOX_ROUTE.delivery, params: { media: world.id }, ...delivery },
    { route: SANDBOX_ROUTE.tracks, params: { site, media: world.id }, body: world.tracks }];
}

/** A media answer of 200: the documented shape, and what the platform said, as the worker promises to show it. */
function checkMediaAnswer(where: string, answer: Answer, world: MediaWorld, bound: boolean): MediaResponse {
  const body = JSON.parse(answer.text) as MediaResponse;
  expectKeys(where, body, [...FEED_ITEM_KEYS, 'poster', 'site', 'sources', 'tracks']);
  checkItem(where, body, bound);
  const { media } = world;
  if (!playable(media)) {
    fail(where, `a media not ready or not published now answered 200: ${JSON.stringify([media.status, media.metadata.publish_start_date,
      media.metadata.publish_end_date])}`);
  }
  if (body.id !== world.id || body.site !== world.site || body.title !== media.metadata.title) {
    fail(where, `another media's id, site or title: ${JSON.stringify([body.id, body.site, body.title.slice(0, 80)])}`);
  }
  if (JSON.stringify(body.tags) !== JSON.stringify(deliveredTags(media))) fail(where, 'tags not as the platform delivers them');
  if (JSON.stringify(body.custom_params) !== JSON.stringify(shown(media.metadata.custom_params))) {
    fail(where, 'custom params not the allowlisted ones');
  }
  const renditionUrls = new Set([`${DELIVERY}/manifests/${world.id}.m3u8`,
    ...(renditionsOf(world)).filter((r) => r.status === 'ready').map((r) => r.delivery_url)]);
  for (const source of body.sources) {
    const ok = typeof source.type === 'string' && (source.width === null || (Number.isInteger(source.width) && source.width > 0))
      && (source.height === null || (Number.isInteger(source.height) && source.height > 0))
      && Number.isFinite(source.filesize) && source.filesize >= 0 && typeof source.label === 'string'
      && (bound ? isPlayback(source.url) : isHttp(source.url) && renditionUrls.has(source.url));
    if (!ok) fail(where, `a source not of the documented shape, or not a ready rendition's: ${JSON.stringify(source).slice(0, 400)}`);
  }
  // The adaptive manifest first, then files widest first.
  const adaptive = body.sources.map((s) => s.type === 'application/vnd.apple.mpegurl');
  if (adaptive.some((a, i) => a && i > 0 && !adaptive[i - 1])) fail(where, 'the HLS manifest not first');
  const widths = body.sources.filter((_, i) => !adaptive[i]).map((s) => s.width ?? -1);
  if (widths.some((w, i) => i > 0 && w > widths[i - 1]!)) fail(where, 'files not widest first');
  for (const track of body.tracks) {
    const ok = ['captions', 'subtitles', 'chapters', 'descriptions', 'metadata', 'thumbnails'].includes(track.kind)
      && typeof track.label === 'string' && typeof track.srclang === 'string' && typeof track.default === 'boolean'
      && (bound ? isPlayback(track.url) : isHttp(track.url));
    if (!ok) fail(where, `a track not of the documented shape: ${JSON.stringify(track).slice(0, 400)}`);
  }
  if (body.tracks.filter((t) => t.default).length > 1) fail(where, 'more than one default track');
  if (body.poster !== null && !(bound ? isPlayback(body.poster) : isHttp(body.poster))) fail(where, 'a poster that is no link');
  if (!bound && answer.text.includes(context.foreign)) fail(where, 'another media\'s file named in the answer');
  return body;
}

const renditionsOf = (world: Pick<MediaWorld, 'renditions'>): any[] => world.renditions.media_renditions;

describe('generated media answers', () => {
  let list: MediaWorld[] = [];
  beforeAll(async () => {
    list = mediaWorlds(context, { seed: SEEDS.media, runs: RUNS }).map((w) => asRead(w, 'media', 'renditions', 'tracks'));
    // The bound playlists as the seed has them: the media cases script nothing they read.
    await freshWorld(BOUND.flatMap((id) => [cacheKeys.feed(SITE, id), cacheKeys.feedHead(SITE, id)]));
  });

  it('every enum value of the media, renditions and text tracks is met', () => {
    expectEveryEnumValue('media', list.flatMap((w) => w.parts));
  });

  // Found by this suite (seed 20260701, run 18): a rendition's `format` "constructor" was looked up on the type table's
  // prototype, and its source went out typed by the Object function, that is, without a `type`.
  it('a rendition whose format or file extension names an Object.prototype member is no source', async () => {
    const base = list.find((w) => playable(w.media) && w.site === SITE)!;
    const template = list.flatMap((w) => w.renditions.media_renditions as any[])[0];
    const id = freshId('zr', 0);
    const rendition = (n: number, format: string, file: string) => ({ ...template, id: freshId('zs', n), format, status: 'ready',
      width: 640, height: 360, delivery_url: `https://cdn.example/${file}` });
    // Nothing of the drawn world names a file (its URLs name its own id): only these renditions do.
    const world = {
      ...base, id, media: { ...base.media, id }, tracks: { ...base.tracks, text_tracks: [] },
      renditions: { ...base.renditions, media_renditions: [rendition(0, 'constructor', 'a'), rendition(1, '__proto__', 'b'),
        rendition(2, 'x', 'c.constructor'), rendition(3, 'mp4', 'd.mp4')] },
    };
    expect([...violations(ROUTE.renditions, world.renditions), ...violations(ROUTE.tracks, world.tracks)]).toEqual([]);
    await freshWorld([], { scriptsAhead: 3, callsAhead: 9 });
    await scripted(...mediaScripts(SITE, world));
    const answer = await call(`/api/sites/${SITE}/media/${id}`, ALLOWED[0]!);
    expect(answer.status, answer.text).toBe(200);
    const types = JSON.parse(answer.text).sources.map((source: any) => source.type);
    expect(types.filter((type: string) => type !== 'application/vnd.apple.mpegurl')).toEqual(['video/mp4']);
  });

  it('are a media of the documented shape or a named error, and a media bound rules select is never shown to a refused visitor',
    { timeout: 180_000 }, async () => {
      // Three calls a world, and the bound playlists read again (six) should their entries have turned stale.
      const options = { concurrency: 5, prepare: () => freshWorld([], { scriptsAhead: 15, callsAhead: 5 * 3 + 6 }) };
      await runAll('media', SEEDS.media, list, options, async (world) => {
        await scripted(...mediaScripts(world.site, world));
        const path = `/api/sites/${world.site}/media/${world.id}`;
        const europe = world.site === EUROPE_SITE;
        const selected = !europe && realBound.some((p) => binds(p, world.id, factsOf(world.media)));
        const allowed = await call(path, ALLOWED[world.run % ALLOWED.length]!);
        const code = judge('allowed visitor', allowed);
        count('media', outcome('allowed', allowed, code));
        // Under a policy (the site's, or a bound playlist's rules selecting it): the worker's playback URLs only.
        if (allowed.status === 200) checkMediaAnswer('allowed visitor', allowed, world, europe || selected);
        if (world.foreign) count('media', outcome('allowed, a rendition naming another media\'s file', allowed, code));

        const refused = await call(path, (europe ? REFUSED_EUROPE : REFUSED)[world.run % 2]!);
        const refusedCode = judge('refused visitor', refused);
        count('media', outcome('refused', refused, refusedCode));
        if ((europe || selected) && refused.status === 200) fail('refused visitor', 'a bound media answered 200', refused);
        if (europe && refused.status !== 451) fail('refused visitor', 'the europe site\'s media not refused before it is read', refused);
        if (selected) count('media', `refused, selected by a bound playlist's rules: ${refused.status}`);
        if (refused.status === 200) checkMediaAnswer('refused visitor', refused, world, false);
      });
    });
});

// ----------------------------------------------------------------------------------------------------------- feed

/**
 * A playlist's Management answers (its head: type and rules) and what the Delivery API delivers of it from the world's
 * media: a manual playlist's listed media in order, a dynamic one's pinned media and those its rules select, up to
 * its limit; published media only, each as `GET /v2/media/<id>` would give it. The similar and search types are
 * delivered for a variant only, and a watchlist never: no delivery answer is scripted for them.
 */
function playlistScripts(site: string, playlist: PlaylistAnswers, media: readonly any[] = []): Script[] {
  const params = { site, playlist: playlist.id };
  const delivered = deliveredFeedOf(playlist, media);
  return [{ route: SANDBOX_ROUTE.playlist, params, body: playlist.untyped },
    ...(playlist.typed
      ? [{ route: SANDBOX_ROUTE.typed, params: { ...params, playlist_type: `${playlist.type}_playlist` }, body: playlist.typed }]
      : []),
    ...(delivered ? [{ route: SANDBOX_ROUTE.deliveryPlaylist, params: { playlist: playlist.id }, status: 200, body: delivered }] : [])];
}

const NO_RENDITIONS = { media_renditions: [], page: 1, page_length: 100, total: 0 };
const NO_TRACKS = { text_tracks: [], page: 1, page_length: 100, total: 0 };

function deliveredFeedOf(playlist: PlaylistAnswers, media: readonly any[]): unknown {
  if (!playlist.typed || !['manual', 'dynamic'].includes(playlist.type)) return null;
  const m = playlist.typed.metadata;
  const byId = new Map(media.filter((x) => playable(x)).map((x) => [x.id as string, x]));
  let chosen: any[];
  if (playlist.type === 'manual') {
    chosen = [...new Set(m.media_filter.include.values as string[])].flatMap((id) => byId.get(id) ?? []);
  } else {
    const pinned = [m.pinning.slot1, m.pinning.slot2].flatMap((id) => byId.get(id) ?? []);
    const selected = [...byId.values()].filter((x) => !pinned.includes(x) && binds(playlist, x.id, factsOf(x)));
    const limit = Number.isInteger(m.media_filter.limit) && m.media_filter.limit > 0 ? m.media_filter.limit : 10;
    chosen = [...pinned, ...selected].slice(0, limit);
  }
  const items = chosen.slice(0, 100).map((x) => (deliveryOf({ id: x.id, media: x, renditions: NO_RENDITIONS, tracks: NO_TRACKS })
    .body as { playlist: unknown[] }).playlist[0]);
  return { title: String(m.title ?? ''), description: '', kind: playlist.type.toUpperCase(), feedid: playlist.id, playlist: items };
}

/** A feed answer of 200: the documented shape, and only media the playlist's own rules or list could bring. */
function checkFeedAnswer(where: string, answer: Answer, world: FeedWorld, page: number, pageLength: number,
  isBound: (item: any) => boolean): FeedResponse {
  const body = JSON.parse(answer.text) as FeedResponse;
  expectKeys(where, body, ['items', 'next_page', 'page', 'page_length', 'playlist', 'site', 'total']);
  expectKeys(where, body.playlist, ['author', 'description', 'id', 'link', 'title', 'type']);
  const { target } = world;
  const head = (target.typed ?? target.untyped).metadata;
  if (body.site !== world.site || body.playlist.id !== target.id || body.playlist.type !== target.type) {
    fail(where, 'another playlist\'s feed');
  }
  if (body.playlist.title !== head.title || !nullOr(body.playlist.description, 'string') || !nullOr(body.playlist.author, 'string')
    || (body.playlist.link !== null && !isHttp(body.playlist.link))) fail(where, 'a playlist\'s fields not as documented');
  if (body.page !== page || body.page_length !== pageLength || !Number.isInteger(body.total) || body.total < body.items.length
    || (body.next_page !== null && body.next_page !== page + 1)) fail(where, 'paging not as documented');
  const listed = new Map((world.list.media as any[]).map((m) => [m.id, m]));
  const seen = new Set<string>();
  for (const item of body.items) {
    expectKeys(where, item, FEED_ITEM_KEYS);
    checkItem(where, item, isBound(item));
    const media = listed.get(item.id);
    if (!media || seen.has(item.id)) fail(where, `an item the media list did not hold, or twice: ${item.id}`);
    seen.add(item.id);
    if (!playable(media)) fail(where, `an item not ready or not published now: ${item.id}`);
    if (target.type === 'watchlist') fail(where, 'a watchlist feed with items');
    if (target.type === 'manual' && !binds(target, item.id)) fail(where, `an item the manual playlist does not list: ${item.id}`);
    if (target.type !== 'manual' && !binds(target, item.id, factsOf(media))) {
      fail(where, `an item the playlist's rules do not select: ${item.id}`);
    }
  }
  return body;
}

describe('generated feed answers', () => {
  let list: FeedWorld[] = [];
  const boundKeys = BOUND.flatMap((id) => [cacheKeys.feed(SITE, id), cacheKeys.feedHead(SITE, id)]);
  beforeAll(() => {
    list = feedWorlds(context, { seed: SEEDS.feed, runs: RUNS }).map((w) => asRead(w, 'target', 'bound', 'list'));
  });
  // The next suites meet the bound playlists as the seed has them.
  afterAll(async () => {
    await scripted();
    await freshWorld(boundKeys);
  });

  it('every enum value of the playlists and the media list is met, and every playlist type asked for', () => {
    expectEveryEnumValue('feed', list.flatMap((w) => w.parts));
    expect(new Set(list.map((w) => w.target.type)).size).toBe(6);
  });

  it('are a feed of the documented shape or a named error; a bound playlist\'s feed and its members are never shown to a refused visitor',
    { timeout: 240_000 }, async () => {
      // The bound playlists' answers as the sandbox now gives them (and the worker holds them once read): new ones at
      // each epoch, a bound target's own at once. What they bind does not depend on the media list (ids, pins, rules).
      const current = new Map<string, PlaylistAnswers>();
      const keysOf = (id: string) => [cacheKeys.feed(SITE, id), cacheKeys.feedHead(SITE, id)];
      // One world at a time: they share the bound playlists and the site's media list. Each starts with the budget
      // full: one whose bound playlist cannot be read reads it again for every request (nothing of it is held).
      const options = { concurrency: 1, prepare: async () => undefined };
      await runAll('feed', SEEDS.feed, list, options, async (world) => {
        const changed = [...(world.bound ?? []), ...(BOUND.includes(world.target.id) ? [world.target] : [])];
        const { cleared } = await freshWorld([...new Set(changed.map((p) => p.id))].flatMap(keysOf), { scriptsAhead: 12, callsAhead: VISITOR_BURST });
        for (const playlist of changed) current.set(playlist.id, playlist);
        // Scripts cleared: the bound playlists' current answers are scripted again (the worker may read them again).
        const listMedia = world.list.media as any[];
        await scripted(...[...(cleared ? current.values() : changed)].flatMap((playlist) => playlistScripts(SITE, playlist, listMedia)),
          ...(BOUND.includes(world.target.id) ? [] : playlistScripts(world.site, world.target, listMedia)));
        const bound = [...current.values()];
        const page = 1 + (world.run % 3 === 2 ? 1 : 0);
        const pageLength = [10, 50, 1][world.run % 3]!;
        const path = `/api/sites/${world.site}/playlists/${world.target.id}?page=${page}&page_length=${pageLength}`;
        const members = (item: any) => bound.some((b) => binds(b, item.id, factsOf(item)));
        const listed = new Map((world.list.media as any[]).map((m) => [m.id, m]));
        const targetBound = world.site === EUROPE_SITE || BOUND.includes(world.target.id);
        // Items under a policy (all of a bound feed's, and members of a bound playlist) are shown with playback URLs.
        const boundItem = (item: any) => targetBound || members(listed.get(item.id) ?? item);

        const allowed = await call(path, ALLOWED[world.run % ALLOWED.length]!);
        const code = judge('allowed visitor', allowed);
        count('feed', outcome('allowed', allowed, code));
        if (allowed.status === 200) checkFeedAnswer('allowed visitor', allowed, world, page, pageLength, boundItem);

        const refused = await call(path, (world.site === EUROPE_SITE ? REFUSED_EUROPE : REFUSED)[world.run % 2]!);
        const refusedCode = judge('refused visitor', refused);
        count('feed', outcome('refused', refused, refusedCode));
        if (targetBound && (refused.status !== 451 || refusedCode !== 'geo_blocked')) {
          fail('refused visitor', 'a bound playlist\'s feed not refused 451', refused);
        }
        if (refused.status === 200) {
          const body = checkFeedAnswer('refused visitor', refused, world, page, pageLength, boundItem);
          const shownMember = body.items.find((item) => members(listed.get(item.id) ?? item));
          if (shownMember) fail('refused visitor', `a bound playlist's member in another feed: ${shownMember.id}`, refused);
        }

        // A media a bound playlist lists, pins or selects, asked for by itself: never 200 for the refused visitor.
        if (world.site !== SITE) return;
        const member = memberOf(world, bound);
        if (!member) return;
        await scripted(...mediaScripts(SITE, member));
        const asked = await call(`/api/sites/${SITE}/media/${member.id}`, REFUSED[world.run % 2]!);
        const askedCode = judge('refused visitor, a member', asked);
        count('feed', outcome(`refused, a member by ${member.by}`, asked, askedCode));
        if (asked.status === 200) fail('refused visitor', `a bound playlist's member (by ${member.by}) answered 200`, asked);
      });
    });
});

/** A media a bound playlist of the world binds, with answers to script for it: by its list, its pins or its rules. */
function memberOf(world: FeedWorld, bound: readonly PlaylistAnswers[]):
  (Pick<MediaWorld, 'id' | 'media' | 'renditions' | 'tracks'> & { by: string }) | null {
  const media = world.list.media as any[];
  const empty = {
    renditions: { media_renditions: [], page: 1, page_length: 100, total: 0 },
    tracks: { text_tracks: [], page: 1, page_length: 100, total: 0 },
  };
  const template = media.find((m) => playable(m));
  for (const playlist of bound) {
    if (!playlist.typed) continue;
    const m = playlist.typed.metadata;
    const named: string[] = playlist.type === 'manual' ? m.media_filter.include.values : [m.pinning.slot1, m.pinning.slot2].filter(Boolean);
    const id = named[world.run % Math.max(1, named.length)];
    if (id !== undefined) {
      const listedMedia = media.find((x) => x.id === id);
      if (listedMedia || template) {
        return { id, media: listedMedia ?? { ...template, id }, ...empty, by: playlist.type === 'manual' ? 'list' : 'pin' };
      }
    }
    const selected = media.find((x) => binds(playlist, x.id, factsOf(x)));
    if (selected) return { id: selected.id, media: selected, ...empty, by: 'rules' };
  }
  return null;
}

// --------------------------------------------------------------------------------------------------------- player

/** The strings of a setting that can name content: URLs and paths anywhere in it, and the values of id keys. */
function namesContent(value: unknown, key: string): boolean {
  if (typeof value === 'string') {
    return (value.includes('/') || /^(media|playlist)_?id$/i.test(key)) && /(?<![A-Za-z0-9])[A-Za-z0-9]{8}(?![A-Za-z0-9])/.test(value);
  }
  if (Array.isArray(value)) return value.some((item) => namesContent(item, key));
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => namesContent(v, k));
  return false;
}

describe('generated player answers', () => {
  let list: PlayerWorld[] = [];
  beforeAll(async () => {
    list = playerWorlds(context, { seed: SEEDS.player, runs: RUNS }).map((w) => asRead(w, 'player'));
    await freshWorld(BOUND.flatMap((id) => [cacheKeys.feed(SITE, id), cacheKeys.feedHead(SITE, id)]));
  });

  it('every enum value of the player is met', () => {
    expectEveryEnumValue('player', list.flatMap((w) => w.parts));
  });

  it('are a player of the documented shape or a named error; a setting naming bound content is left out for a refused visitor',
    { timeout: 180_000 }, async () => {
      // The plain site's bound playlists are filtered ones (the seed's dynamic and search): a setting naming any id may
      // name a media their rules select, so for a visitor both refuse, every setting naming an id is left out.
      expect(realBound.every((p) => p.type !== 'manual' && p.type !== 'watchlist')).toBe(true);
      const options = { concurrency: 8, prepare: () => freshWorld([], { scriptsAhead: 8, callsAhead: 8 + 6 }) };
      await runAll('player', SEEDS.player, list, options, async (world) => {
        await scripted({ route: SANDBOX_ROUTE.player, params: { site: world.site, player: world.id }, body: world.player });
        const path = `/api/sites/${world.site}/players/${world.id}`;
        const { player } = world;
        const expected: PlayerResponse = { id: world.id, name: player.metadata.name, release_channel: player.metadata.release_channel,
          setup_config: player.metadata.setup_config };

        const allowed = await call(path, ALLOWED[world.run % ALLOWED.length]!);
        const code = judge('allowed visitor', allowed);
        count('player', outcome('allowed', allowed, code));
        if (allowed.status === 200) {
          const body = JSON.parse(allowed.text);
          expectKeys('allowed visitor', body, ['id', 'name', 'release_channel', 'setup_config']);
          expect(body, 'allowed visitor: the player as the platform has it').toEqual(expected);
        }

        const refused = await call(path, (world.site === EUROPE_SITE ? REFUSED_EUROPE : REFUSED)[world.run % 2]!);
        const refusedCode = judge('refused visitor', refused);
        count('player', outcome('refused', refused, refusedCode));
        if (world.site === EUROPE_SITE) {
          if (refused.status !== 451) fail('refused visitor', 'the europe site\'s player not refused', refused);
          return;
        }
        if (refused.status !== 200) return;
        const body = JSON.parse(refused.text);
        const settings = Object.entries(expected.setup_config);
        const kept = Object.fromEntries(settings.filter(([k, v]) => !namesContent(v, k)));
        expect(body, 'refused visitor: the player without the settings naming content').toEqual({ ...expected, setup_config: kept });
        if (settings.length > Object.keys(kept).length) count('player', 'refused, settings left out');
      });
    });
});

// ------------------------------------------------------------------------------------------------------- playback

const SERVED = /^(video|audio)\/|^application\/(vnd\.apple\.mpegurl|octet-stream|dash\+xml|mp4)|^binary\/octet-stream|^image\/|^text\/vtt/;

describe('generated media answers under a policy, and their playback URLs', () => {
  let list: PlaybackWorld[] = [];
  const realKeys = () => [cacheKeys.media(EUROPE_SITE, context.real.id), cacheKeys.poster(EUROPE_SITE, context.real.id)];
  beforeAll(() => {
    list = playbackWorlds(context, { seed: SEEDS.playback, runs: RUNS }).map((w) => asRead(w, 'media', 'renditions', 'tracks'));
  });
  afterAll(() => freshWorld(realKeys()));

  it('every enum value of the renditions and text tracks is met', () => {
    expectEveryEnumValue('playback', list.flatMap((w) => w.parts));
  });

  it('answer playback URLs only; each opened answers bytes or a named error, and is refused to a refused visitor',
    { timeout: 180_000 }, async () => {
      // The real media's worlds share its id (its cache entry, its record): one per batch, its entry dropped before.
      const options = {
        concurrency: 5, exclusive: (world: PlaybackWorld) => world.realFiles,
        prepare: (batch: readonly PlaybackWorld[]) => freshWorld(batch.some((w) => w.realFiles) ? realKeys() : [],
          { scriptsAhead: 15, callsAhead: 5 * 3 }),
      };
      await runAll('playback', SEEDS.playback, list, options, async (world) => {
        await scripted(...mediaScripts(world.site, world));
        const visitor = ALLOWED[world.run % ALLOWED.length]!;
        const answer = await call(`/api/sites/${world.site}/media/${world.id}`, visitor);
        const code = judge('allowed visitor', answer);
        count('playback', outcome('media', answer, code));
        if (answer.status !== 200) return;
        const body = checkMediaAnswer('allowed visitor', answer, world, true);
        const urls = {
          source: body.sources.map((s) => s.url), track: body.tracks.map((t) => t.url),
          poster: [body.poster].filter((u): u is string => u !== null), thumbnail: body.thumbnails.map((t) => t.url),
        };
        // The kind the world opens, else the first kind the answer has.
        const kind = ([world.open, 'source', 'track', 'poster'] as const).find((k) => urls[k].length);
        if (!kind) return;
        const url = urls[kind][world.run % urls[kind].length]!;
        const opened = await call(url, visitor, kind === 'source' ? { range: 'bytes=0-4095' } : {});
        const openedCode = judge('playback URL', opened, [200, 206]);
        count('playback', outcome(`bytes (${kind})`, opened, openedCode));
        if (opened.status < 400) {
          const type = opened.response.headers.get('content-type') ?? '';
          if (opened.bytes === 0 || !SERVED.test(type)) {
            fail('playback URL', `not bytes of a kind a player is handed (${opened.status}, ${type}, ${opened.bytes} bytes)`, opened);
          }
          if (opened.response.headers.get('x-content-type-options') !== 'nosniff') fail('playback URL', 'bytes without nosniff');
        }
        const refused = await call(url, REFUSED_EUROPE[world.run % 3]!);
        const refusedCode = judge('refused visitor', refused);
        count('playback', outcome('bytes, refused visitor', refused, refusedCode));
        if (refused.status !== 451 || refusedCode !== 'playback_denied') {
          fail('refused visitor', 'bytes not refused 451 playback_denied', refused);
        }
      });
    });
});
