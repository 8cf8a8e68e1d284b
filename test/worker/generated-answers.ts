/**
 * Valid-but-unusual platform answers, generated from the platform's published definition (test/platform/schemas.json)
 * with fast-check, seeded so every run sees the same answers: nulls wherever a member may be null, optional members
 * left out, every enum value over the runs, long lists (ids, tags, renditions, tracks, media), unusual strings (empty,
 * very long, unicode, lone surrogates, `javascript:` and relative URLs, "rMW2"), unusual but valid date-times (lower
 * case, a space for the `T`, offsets, a leap second) and numbers (negative, huge, fractional, -0).
 *
 * Every answer is checked with the conformance gate's own check (test/platform/conformance.ts) before it is used, and
 * regenerated from another seed until it passes: the gate would otherwise refuse the sandbox's answer, and a test
 * would fail for the generator, not for the worker. Ids are kept coherent where the worker reads them (a media's `id`
 * is the id asked for, a list's media are the ones its playlist names), so the worker is never refused an answer for
 * the wrong reason.
 *
 * The worlds below (one per public resource) say which answers one case scripts; what the worker should make of them
 * is the suite's to judge, from the final answers (test/worker/generated-answers.test.ts).
 */
import fc from 'fast-check';
import { checkAnswer, extractedSchema } from '../platform/conformance.ts';

type Schema = Record<string, any>;
type Json = any;

export const ROUTE = {
  media: 'GET /v2/sites/{site_id}/media/{media_id}/',
  mediaList: 'GET /v2/sites/{site_id}/media/',
  renditions: 'GET /v2/sites/{site_id}/media/{media_id}/media_renditions/',
  tracks: 'GET /v2/sites/{site_id}/media/{media_id}/text_tracks/',
  player: 'GET /v2/sites/{site_id}/players/{player_id}/',
  playlist: 'GET /v2/sites/{site_id}/playlists/{playlist_id}/',
  typed: (type: string) => `GET /v2/sites/{site_id}/playlists/{playlist_id}/${type}_playlist/`,
} as const;

const PLAYLIST_TYPES = ['manual', 'dynamic', 'search', 'recommendations', 'article_matching', 'watchlist'] as const;
export type PlaylistType = (typeof PLAYLIST_TYPES)[number];
const TYPED = PLAYLIST_TYPES.filter((t) => t !== 'watchlist');

// ------------------------------------------------------------------------------------------------ unusual values

/** Strings a platform field could hold that a careless reader trips on. */
const UNUSUAL_STRINGS: readonly string[] = [
  '', ' ', 'rMW2', 'rMW2rMW2', 'null', 'undefined', 'true', '0', '-1', 'NaN', '[]', '{}', '__proto__', 'constructor',
  'toString', 'hasOwnProperty', ' leading and trailing ', '\t\n\r', 'line\u2028separator', 'nul\u0000byte', 'zero\u200bwidth',
  'Ünïcødé ✓ 日本語 🎬', 'مرحبا بالعالم', 'e\u0301\u0301\u0301', '👩‍👩‍👧‍👦', '\ufeffBOM', 'ＦＵＬＬＷＩＤＴＨ',
  'javascript:alert(document.domain)//', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "it's", '"quoted"', '\\', '%2e%2e%2f',
  '../../etc/passwd', '/relative/path.mp4', 'relative/path.m3u8', '//evil.example/x.mp4', '?q=1', '#fragment', 'http://',
  'https://', 'https://user:pass@example.com/x.mp4', 'http://[::1]/x', 'https://example.com/ünï code.mp4', 'ftp://example.com/x.mp4',
  'HTTPS://EXAMPLE.COM/UPPER.MP4', 'https://example.com/' + 'a'.repeat(3000), 'https://example.com/x.mp4?exp=1&sig=abc',
];

/** Date-times the definition's `format: date-time` takes, some of which few parsers read. */
const PAST = ['2020-01-01T00:00:00Z', '2024-05-01T12:00:00.5+02:00', '2021-06-15 08:30:00Z', '2019-02-28t23:00:00z',
  '1970-01-01T00:00:00Z', '2016-12-31T23:59:60Z', '2023-03-01T00:00:00.123456789-23:59', '2010-07-04T00:00:00+00:00'];
const FUTURE = ['2099-01-01T00:00:00Z', '2999-12-31T23:59:59.999Z', '2100-02-28 00:00:00-05:00', '9999-12-31T23:59:59Z'];
const dateTime = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PAST) },
  { weight: 2, arbitrary: fc.constantFrom(...FUTURE) },
  { weight: 1, arbitrary: fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2098-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString()) },
);

const unusualString = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...UNUSUAL_STRINGS) },
  { weight: 8, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  // Very long, rarely: a long media list holds hundreds of strings.
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 2000 }).map((n) => 'long '.repeat(n)) },
);
const unusualInteger = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 3000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER) },
);
const unusualNumber = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -10, max: 100_000 }) },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 0.1, 1e308, 5e-324, -1, 86_400 * 365 * 100) },
);
/** A platform id: eight letters and digits, a few of them odd ones. */
const platformId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{8}$/), fc.constantFrom('00000000', 'rMW2rMW2', 'AAAAAAAA', 'zzzzzzzz'));

/** A fresh id of one case: two letters of its kind, then the case and a counter (never a seeded id). */
export function freshId(kind: string, run: number, n = 0): string {
  return `${kind}${run.toString(36).padStart(4, '0')}${n.toString(36).padStart(2, '0')}`.slice(0, 8);
}

// --------------------------------------------------------------------------------------- schemas to arbitraries

function schemaOf(route: string): Schema {
  const schema = extractedSchema(route, 200);
  if (!schema) throw new Error(`no 200 schema for ${route}`);
  return schema as Schema;
}

/** One schema for an `allOf` (the definition's resources are a base and their own part): members merged. */
function flatten(schema: Schema): Schema {
  if (!schema.allOf) return schema;
  const members = (schema.allOf as Schema[]).map(flatten);
  const out: Schema = { ...schema };
  delete out.allOf;
  for (const member of members) {
    for (const [key, value] of Object.entries(member)) {
      if (key === 'properties') {
        const properties: Schema = { ...(out.properties ?? {}) };
        for (const [name, property] of Object.entries(value as Schema)) {
          properties[name] = properties[name] ? flatten({ allOf: [properties[name], property] }) : property;
        }
        out.properties = properties;
      } else if (key === 'required') {
        out.required = [...new Set([...(out.required ?? []), ...(value as string[])])];
      } else if (key === 'unevaluatedProperties' || key === 'additionalProperties') {
        if (out[key] !== false) out[key] = value;
      } else {
        out[key] = value;
      }
    }
  }
  return out;
}

/**
 * Arbitraries that stand in for a member's where a world needs coherence, by the member's path in the answer (an
 * array's items are at `<array>/*`, whatever their index).
 */
type Overrides = ReadonlyArray<readonly [RegExp, fc.Arbitrary<Json>]>;

interface Lengths {
  /** Longest "long" list, by path. */
  long: (path: string) => number;
}

const DEFAULT_LENGTHS: Lengths = { long: () => 40 };

function arbitraryOf(raw: Schema, path: string, overrides: Overrides, lengths: Lengths): fc.Arbitrary<Json> {
  for (const [pattern, arbitrary] of overrides) if (pattern.test(path)) return arbitrary;
  const schema = flatten(raw);
  if (schema.anyOf) {
    const members = (schema.anyOf as Schema[]).map(flatten);
    const values = members.filter((m) => m.type !== 'null').map((m) => arbitraryOf(m, path, overrides, lengths));
    const value = values.length === 1 ? values[0]! : fc.oneof(...values);
    return members.some((m) => m.type === 'null')
      ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: value })
      : value;
  }
  if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
  switch (schema.type) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': return unusualInteger;
    case 'number': return unusualNumber;
    case 'string':
      if (schema.format === 'date-time') return dateTime;
      if (schema.pattern === '^[A-Za-z0-9]+$' && schema.minLength === 8 && schema.maxLength === 8) return platformId;
      if (schema.pattern || schema.minLength || schema.maxLength !== undefined) {
        throw new Error(`${path}: a string constraint the generator does not know`);
      }
      return unusualString;
    case 'array': {
      const item = arbitraryOf(schema.items ?? {}, `${path}/*`, overrides, lengths);
      const list = (min: number, max: number) => (schema.uniqueItems
        ? fc.uniqueArray(item, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength: min, maxLength: max }));
      const long = lengths.long(path);
      return fc.oneof({ weight: 8, arbitrary: list(0, 4) }, { weight: 1, arbitrary: list(Math.min(20, long), long) });
    }
    case 'object': {
      const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const required = new Set<string>(schema.required ?? []);
      const model = Object.fromEntries(properties.map(([name, property]) =>
        [name, arbitraryOf(property, `${path}/${name}`, overrides, lengths)]));
      // Members not in `required` are left out now and then (the record's other keys).
      const record = fc.record(model, { requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)) });
      const extra = schema.additionalProperties;
      if (extra === undefined || extra === false) return record;
      const names = new Set(properties.map(([name]) => name));
      const key = fc.oneof(unusualString, fc.string({ maxLength: 12 })).filter((k) => !names.has(k) && k.length < 200);
      const value = extra === true
        ? fc.jsonValue({ maxDepth: 3 })
        : arbitraryOf(extra as Schema, `${path}/*`, overrides, lengths);
      const map = fc.oneof({ weight: 4, arbitrary: fc.dictionary(key, value, { maxKeys: 4 }) },
        { weight: 1, arbitrary: fc.dictionary(key, value, { minKeys: 10, maxKeys: 30 }) });
      return fc.tuple(record, map).map(([known, more]) => ({ ...more, ...known }));
    }
    default:
      // `{}` (an open object member): any JSON.
      return schema.type === undefined && Object.keys(schema).length === 0 ? fc.jsonValue({ maxDepth: 2 }) : fc.constant({});
  }
}

function answerArbitrary(route: string, overrides: Overrides = [], lengths: Lengths = DEFAULT_LENGTHS): fc.Arbitrary<Json> {
  return arbitraryOf(schemaOf(route), '', overrides, lengths);
}

// ------------------------------------------------------------------------------------------ checks and enum sweep

const ANY_ID = 'abcdEFGH';

/** The gate's verdict on an answer of `route`: its violations, none when it conforms. */
export function violations(route: string, value: Json): string[] {
  const path = route.split(' ')[1]!.replace(/\{[^}]+\}/g, ANY_ID);
  return checkAnswer('GET', path, 200, JSON.stringify(value)).violations;
}

/** Where an enum stands in an answer, and the value there. */
interface EnumSite {
  key: string;
  values: readonly Json[];
  get: () => Json;
  set: (value: Json) => void;
}

/** Every enum-valued member of `value`, as its schema types it (`key`: route and path, `*` for any index). */
function enumSites(route: string, schema: Schema, value: Json, path: string, into: EnumSite[],
  holder?: { parent: Json; key: string | number }): EnumSite[] {
  const flat = flatten(schema);
  if (value === null || value === undefined) return into;
  if (flat.anyOf) {
    for (const member of (flat.anyOf as Schema[]).map(flatten)) {
      if (member.type === 'null') continue;
      if (member.type === 'object' && (typeof value !== 'object' || Array.isArray(value))) continue;
      if (member.type === 'string' && typeof value !== 'string') continue;
      enumSites(route, member, value, path, into, holder);
      break;
    }
    return into;
  }
  if (flat.enum && holder) {
    const { parent, key } = holder;
    into.push({ key: `${route} ${path}`, values: flat.enum, get: () => parent[key], set: (v) => { parent[key] = v; } });
    return into;
  }
  if (Array.isArray(value) && flat.items) {
    value.forEach((item, i) => enumSites(route, flat.items, item, `${path}/*`, into, { parent: value, key: i }));
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    const properties = (flat.properties ?? {}) as Record<string, Schema>;
    for (const [name, member] of Object.entries(value as Record<string, Json>)) {
      const property = Object.hasOwn(properties, name) ? properties[name]
        : typeof flat.additionalProperties === 'object' ? flat.additionalProperties : undefined;
      if (property) enumSites(route, property, member, `${path}/${name}`, into, { parent: value, key: name });
    }
  }
  return into;
}

/** An answer of a world: its route, the value scripted, and the enum paths the world fixed itself (not swept). */
export interface Part {
  route: string;
  value: Json;
  fixed?: RegExp;
}

/**
 * Sets enum members so that, over all worlds, every value of every enum the answers hold is met: a value not met yet
 * takes the place of one met twice or more (so none is lost). Returns the enums that still miss values (too few
 * places to hold them all), by key.
 */
function sweepEnums(parts: readonly Part[]): Map<string, Json[]> {
  const byKey = new Map<string, EnumSite[]>();
  for (const part of parts) {
    for (const site of enumSites(part.route, schemaOf(part.route), part.value, '', [])) {
      if (part.fixed?.test(site.key.slice(part.route.length + 1))) continue;
      const list = byKey.get(site.key) ?? [];
      list.push(site);
      byKey.set(site.key, list);
    }
  }
  const missing = new Map<string, Json[]>();
  for (const [key, sites] of byKey) {
    const counts = new Map<string, number>();
    for (const site of sites) counts.set(JSON.stringify(site.get()), (counts.get(JSON.stringify(site.get())) ?? 0) + 1);
    const unmet = sites[0]!.values.filter((v) => !counts.has(JSON.stringify(v)));
    let cursor = 0;
    for (const value of unmet) {
      // The next place whose value is met at least twice.
      while (cursor < sites.length && (counts.get(JSON.stringify(sites[cursor]!.get())) ?? 0) < 2) cursor++;
      if (cursor >= sites.length) {
        missing.set(key, [...(missing.get(key) ?? []), value]);
        continue;
      }
      const site = sites[cursor++]!;
      const was = JSON.stringify(site.get());
      counts.set(was, counts.get(was)! - 1);
      site.set(value);
      counts.set(JSON.stringify(value), 1);
    }
  }
  return missing;
}

/** Every value each enum holds over the parts, by key (for the suite's coverage check and summary). */
export function enumCoverage(parts: readonly Part[]): Map<string, { values: readonly Json[]; seen: Set<string> }> {
  const out = new Map<string, { values: readonly Json[]; seen: Set<string> }>();
  for (const part of parts) {
    for (const site of enumSites(part.route, schemaOf(part.route), part.value, '', [])) {
      if (part.fixed?.test(site.key.slice(part.route.length + 1))) continue;
      const entry = out.get(site.key) ?? { values: site.values, seen: new Set<string>() };
      entry.seen.add(JSON.stringify(site.get()));
      out.set(site.key, entry);
    }
  }
  return out;
}

// -------------------------------------------------------------------------------------------------------- worlds

/** What the worlds are built around: the test configuration's sites and bound playlists, and real files. */
export interface Context {
  /** The delivery host (DELIVERY_BASE_URL). */
  delivery: string;
  /** A site without a site-wide policy whose playlists `bound` are bound, and the site bound to `europe`. */
  site: string;
  europeSite: string;
  bound: readonly string[];
  /** Tags and custom params of the bound playlists' real rules: worlds use them so rules select some media. */
  tags: readonly string[];
  params: Readonly<Record<string, string>>;
  /** A published media of the europe site, its files on the delivery host (its renditions, its tracks). */
  real: { id: string; renditions: readonly string[]; tracks: readonly string[] };
  /** A file of another media on the delivery host (a writer's external media naming it is refused). */
  foreign: string;
}

export interface Sampling {
  seed: number;
  runs: number;
}

const MAX_ANSWER_CHARS = 1_500_000;

/** How many answers had to be drawn again because the gate would have refused them, by route. */
export const redrawn = new Map<string, number>();

/** Why the gate would refuse a world's answers (or the sandbox could not keep one), by route; empty when none. */
function refusals(world: { parts: Part[] }): Array<[string, string[]]> {
  return world.parts.map((p): [string, string[]] => [p.route, [...violations(p.route, p.value),
    // A scripted answer is kept in the sandbox's SQLite storage: one of over 1.5 MB is drawn again.
    ...(JSON.stringify(p.value).length > MAX_ANSWER_CHARS ? ['too large to script'] : [])]]).filter(([, v]) => v.length);
}

/**
 * `runs` worlds from `arbitrary` (seeded), each made coherent by `cohere`, their enums swept over all worlds, then
 * checked part by part: a world with a part the gate would refuse is drawn again from another seed.
 */
function worlds<R, W extends { parts: Part[] }>(arbitrary: fc.Arbitrary<R>, { seed, runs }: Sampling,
  cohere: (raw: R, run: number) => W): W[] {
  const out = fc.sample(arbitrary, { seed, numRuns: runs }).map((raw, run) => cohere(raw, run));
  sweepEnums(out.flatMap((w) => w.parts));
  return out.map((first, run) => {
    let world = first;
    for (let attempt = 1; ; attempt++) {
      const bad = refusals(world);
      if (!bad.length) return world;
      for (const [route] of bad) redrawn.set(route, (redrawn.get(route) ?? 0) + 1);
      if (attempt > 20) throw new Error(`run ${run}: no conforming answer in 20 draws: ${JSON.stringify(bad).slice(0, 2000)}`);
      world = cohere(fc.sample(arbitrary, { seed: seed + 7919 * attempt + run, numRuns: 1 })[0]!, run);
    }
  });
}

const pick = <T>(list: readonly T[], n: number): T => list[((n % list.length) + list.length) % list.length]!;

/** Tags: mostly the bound rules' own (so rules select some media), else unusual ones. */
function tagArbitrary(context: Context) {
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...context.tags, 'music', 'news') }, { weight: 1, arbitrary: unusualString });
}

function paramsArbitrary(context: Context) {
  const entries = Object.entries(context.params);
  const known = entries.length ? fc.constantFrom(...entries) : fc.constant(['series', 'x'] as [string, string]);
  const entry = fc.oneof({ weight: 2, arbitrary: known },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('series', 'episode', 'rating', '__proto__', ''), unusualString) });
  return fc.array(entry, { maxLength: 4 }).map((list) => {
    const out: Record<string, string> = {};
    for (const [k, v] of list) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

/** Publish dates: mostly a window open now, sometimes one not open (yet, any more) or none. */
const publishStart = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PAST) }, { weight: 1, arbitrary: fc.constantFrom(...FUTURE) },
  { weight: 1, arbitrary: fc.constant(null) });
const publishEnd = fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom(...FUTURE) },
  { weight: 1, arbitrary: fc.constantFrom(...PAST) });

/** Media members made coherent for a world (`prefix`: where media sit in the answer, `''` or `/media/*`). */
function mediaOverrides(context: Context, prefix: string): Overrides {
  const at = (rest: string) => new RegExp(`^${prefix.replace(/[*/]/g, '\\$&')}${rest}$`);
  return [
    // Mostly ready (the sweep still brings every status): the worker reads a ready media furthest.
    [at('/status'), fc.oneof({ weight: 5, arbitrary: fc.constant('ready') },
      { weight: 1, arbitrary: fc.constantFrom('created', 'processing', 'updating', 'failed') })],
    [at('/metadata/tags/\\*'), tagArbitrary(context)],
    [at('/metadata/custom_params'), paramsArbitrary(context)],
    [at('/metadata/publish_start_date'), publishStart],
    [at('/metadata/publish_end_date'), publishEnd],
  ];
}

// ---- media: GET /api/sites/:site/media/:media reads the media, its renditions, its text tracks

export interface MediaWorld {
  run: number;
  site: string;
  id: string;
  media: Json;
  renditions: Json;
  tracks: Json;
  /** A rendition names another media's file on the delivery host. */
  foreign: boolean;
  parts: Part[];
}

/** Stands for the world's media id in URLs drawn before it is known (`retarget`). */
const MEDIA = '{media}';

/** Where a rendition or a track says its file is: the delivery host's own layout, fixtures, elsewhere, or no URL. */
function fileUrl(context: Context, n: number, kind: 'rendition' | 'track'): fc.Arbitrary<string> {
  const d = context.delivery;
  const own = kind === 'rendition'
    ? [`${d}/videos/${MEDIA}-r${n}.mp4`, `${d}/manifests/${MEDIA}.m3u8`, `${d}/videos/${MEDIA}-r${n}.m4a`]
    : [`${d}/tracks/${freshId('zt', n)}.vtt`, `${d}/manifests/${MEDIA}/subs/t${n}.vtt`];
  const fixtures = kind === 'rendition'
    ? [`${d}/cdn/hostile/master.m3u8`, `${d}/cdn/generated/1.bin`, `${d}/cdn/hostile/clip.mp4`, `${d}/cdn/hostile/page.m3u8`,
      `${d}/cdn/test-hls/generated/1/sized.m3u8`]
    : [`${d}/cdn/hostile/subs.vtt`, `${d}/cdn/hostile/page.html`];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...own) },
    { weight: 2, arbitrary: fc.constantFrom(...fixtures) },
    { weight: 1, arbitrary: fc.constantFrom('https://cdn.example/a/b.mp4', 'http://other.example/x.m3u8?x=1#y',
      'https://cdn.example/track.vtt') },
    { weight: 2, arbitrary: unusualString },
  );
}

const FORMAT: Overrides[number] = [/^\/media_renditions\/\*\/format$/, fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('mp4', 'm3u8', 'm4a', 'webm', 'mpd', 'aac', '.MP4', 'mov') },
  { weight: 1, arbitrary: unusualString })];

function renditionOverrides(context: Context): Overrides {
  return [[/^\/media_renditions\/\*\/delivery_url$/, fc.nat(40).chain((n) => fileUrl(context, n, 'rendition'))], FORMAT];
}

function trackOverrides(context: Context): Overrides {
  return [[/^\/text_tracks\/\*\/delivery_url$/, fc.oneof({ weight: 4, arbitrary: fc.nat(40).chain((n) => fileUrl(context, n, 'track')) },
    { weight: 1, arbitrary: fc.constant(null) })]];
}

const LIST_LENGTHS: Lengths = { long: (path) => (path.startsWith('/media_renditions') || path.startsWith('/text_tracks') ? 120 : 40) };

/**
 * A media world: the media (id the one asked for), its renditions and its text tracks, in the plain site (four in
 * five) or the europe site. One in ten names another media's file among its renditions.
 */
export function mediaWorlds(context: Context, sampling: Sampling): MediaWorld[] {
  const arbitrary = fc.record({
    media: answerArbitrary(ROUTE.media, mediaOverrides(context, '')),
    renditions: answerArbitrary(ROUTE.renditions, renditionOverrides(context), LIST_LENGTHS),
    tracks: answerArbitrary(ROUTE.tracks, trackOverrides(context), LIST_LENGTHS),
    europe: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    foreign: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  });
  return worlds(arbitrary, sampling, (raw, run) => {
    const id = freshId('zm', run);
    const media = structuredClone(raw.media);
    media.id = id;
    const renditions = retarget(raw.renditions, id);
    const tracks = retarget(raw.tracks, id);
    if (raw.foreign && renditions.media_renditions.length) renditions.media_renditions[0].delivery_url = context.foreign;
    return {
      run, site: raw.europe ? context.europeSite : context.site, id, media, renditions, tracks,
      foreign: raw.foreign && renditions.media_renditions.length > 0,
      parts: [{ route: ROUTE.media, value: media }, { route: ROUTE.renditions, value: renditions }, { route: ROUTE.tracks, value: tracks }],
    };
  });
}

/** The answer with its URLs naming the world's media (they were drawn before its id was known). */
function retarget(value: Json, id: string): Json {
  return JSON.parse(JSON.stringify(value).replaceAll(MEDIA, id));
}

// ---- playback: a media under a policy is answered with /api/play/ URLs; their bytes

export interface PlaybackWorld extends MediaWorld {
  /** The media is the real one (its files exist on the delivery host), not a fresh id. */
  realFiles: boolean;
  /** Which of the answer's playback URLs the case opens: a source, a track, the poster or a thumbnail. */
  open: 'source' | 'track' | 'poster' | 'thumbnail';
}

/**
 * A playback world, in the europe site: the media (ready and published in six of seven, so it has URLs), its
 * renditions and tracks naming real files, fixtures and unusual URLs. One in four is the real media itself, whose
 * files the delivery host serves.
 */
export function playbackWorlds(context: Context, sampling: Sampling): PlaybackWorld[] {
  const d = context.delivery;
  // The real media's own files, named by the placeholder: they are its own in a world of the real media only.
  const realRendition = fc.constantFrom(...context.real.renditions.map((url) => url.replaceAll(context.real.id, MEDIA)));
  const realTrack = fc.constantFrom(...context.real.tracks);
  const renditionUrl = fc.oneof({ weight: 2, arbitrary: realRendition },
    { weight: 3, arbitrary: fc.nat(40).chain((n) => fileUrl(context, n, 'rendition')) });
  const trackUrl = fc.oneof({ weight: 2, arbitrary: realTrack }, { weight: 1, arbitrary: fc.constant(`${d}/cdn/hostile/subs.vtt`) },
    { weight: 2, arbitrary: fc.nat(40).chain((n) => fileUrl(context, n, 'track')) });
  const arbitrary = fc.record({
    media: answerArbitrary(ROUTE.media, mediaOverrides(context, '')),
    renditions: answerArbitrary(ROUTE.renditions, [[/^\/media_renditions\/\*\/delivery_url$/, renditionUrl], FORMAT,
      [/^\/media_renditions\/\*\/status$/, fc.oneof({ weight: 4, arbitrary: fc.constant('ready') },
        { weight: 1, arbitrary: fc.constantFrom('failed', 'processing') })]], LIST_LENGTHS),
    tracks: answerArbitrary(ROUTE.tracks, [[/^\/text_tracks\/\*\/delivery_url$/, trackUrl],
      [/^\/text_tracks\/\*\/status$/, fc.oneof({ weight: 4, arbitrary: fc.constant('ready') },
        { weight: 1, arbitrary: fc.constantFrom('created', 'processing', 'draft', 'failed') })]], LIST_LENGTHS),
    playable: fc.integer({ min: 0, max: 6 }).map((n) => n !== 0),
    realFiles: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  });
  const opens = ['source', 'track', 'poster', 'thumbnail'] as const;
  return worlds(arbitrary, sampling, (raw, run) => {
    const id = raw.realFiles ? context.real.id : freshId('zb', run);
    const media = structuredClone(raw.media);
    media.id = id;
    if (raw.playable) {
      media.status = 'ready';
      media.metadata.publish_start_date = pick(PAST, run);
      media.metadata.publish_end_date = run % 3 ? null : pick(FUTURE, run);
    }
    const renditions = retarget(raw.renditions, id);
    const tracks = retarget(raw.tracks, id);
    return {
      run, site: context.europeSite, id, media, renditions, tracks, foreign: false, realFiles: raw.realFiles,
      open: pick(opens, run),
      parts: [{ route: ROUTE.media, value: media, fixed: raw.playable ? /^\/status$/ : undefined },
        { route: ROUTE.renditions, value: renditions }, { route: ROUTE.tracks, value: tracks }],
    };
  });
}

// ---- player: GET /api/sites/:site/players/:player reads the player

export interface PlayerWorld {
  run: number;
  site: string;
  id: string;
  player: Json;
  parts: Part[];
}

/**
 * A player world: the player (id the one asked for), whose `setup_config` holds any JSON and, often, settings naming
 * content: a bound playlist's URL, a media id in an inline playlist, ids in unusual places.
 */
export function playerWorlds(context: Context, sampling: Sampling): PlayerWorld[] {
  const d = 'https://cdn.jwplayer.com';
  const naming = fc.oneof(
    fc.constantFrom(...context.bound).map((id) => ({ playlist: `${d}/v2/playlists/${id}` })),
    fc.constantFrom(...context.bound).map((id) => ({ related: { file: `${d}/v2/playlists/${id}?related_media_id=MEDIA_ID` } })),
    platformId.map((id) => ({ playlist: [{ mediaid: id, file: `${d}/videos/${id}.mp4`, title: 'rMW2' }] })),
    platformId.map((id) => ({ advertising: { tag: `https://ads.example/${id}/vast.xml` } })),
    platformId.map((id) => ({ media_id: id })),
    platformId.map((id) => ({ notes: `the id ${id} outside a URL` })),
    fc.constant({ playlist: `${d}/v2/playlists/rMW2` }),
    fc.constant({ sharing: { link: 'javascript:alert(1)//MEDIAID' } }),
  );
  const arbitrary = fc.record({
    player: answerArbitrary(ROUTE.player),
    naming: fc.array(naming, { maxLength: 4 }),
    europe: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  });
  return worlds(arbitrary, sampling, (raw, run) => {
    const id = freshId('zy', run);
    const player = structuredClone(raw.player);
    player.id = id;
    // Spread, not assigned: a drawn `__proto__` setting stays an own member, as JSON.parse makes it.
    player.metadata.setup_config = raw.naming.reduce((all, setting) => ({ ...all, ...setting }), { ...player.metadata.setup_config });
    return { run, site: raw.europe ? context.europeSite : context.site, id, player, parts: [{ route: ROUTE.player, value: player }] };
  });
}

// ---- feed: GET /api/sites/:site/playlists/:playlist reads the playlist, its typed answer, the media list

export interface PlaylistAnswers {
  id: string;
  type: PlaylistType;
  untyped: Json;
  /** Null for a watchlist (no typed answer is read). */
  typed: Json | null;
}

/**
 * How many worlds the bound playlists' answers hold for: a world that starts an epoch brings new ones (a bound target
 * replaces its own at once). Reading a bound playlist costs the worker three calls, so not every world pays them.
 */
const EPOCH = 10;

export interface FeedWorld {
  run: number;
  site: string;
  /** The playlist asked for: a fresh one, or (in the plain site) one of the bound ones. */
  target: PlaylistAnswers;
  /** New answers of the plain site's bound playlists (the target among them when it is one), or null: as before. */
  bound: PlaylistAnswers[] | null;
  /** The answer of every media list call. */
  list: Json;
  parts: Part[];
}

function playlistArbitrary(context: Context) {
  const filterOverrides: Overrides = [
    [/^\/metadata\/tag_filter\/(include|exclude)\/values$/, fc.uniqueArray(tagArbitrary(context), { maxLength: 3 })],
    [/^\/metadata\/custom_param_filter\/(include|exclude)\/values$/, paramsArbitrary(context)],
    // Now and then (rarely: a bound playlist the worker cannot read is read again for every request) a span or a
    // limit the worker cannot read: the playlist is then refused, and all it could bind.
    [/^\/metadata\/recency$/, fc.oneof({ weight: 30, arbitrary: fc.constant(null) },
      { weight: 15, arbitrary: fc.constantFrom('30D', '1YR', '9999D', '7d', '0D', '') }, { weight: 1, arbitrary: unusualString })],
    [/^\/metadata\/media_filter\/limit$/, fc.oneof({ weight: 40, arbitrary: fc.integer({ min: 1, max: 60 }) },
      { weight: 1, arbitrary: unusualInteger })],
    [/^\/metadata\/pinning\/slot[12]$/, fc.oneof({ weight: 3, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.nat(30).map((n) => `@${n}`) }, { weight: 1, arbitrary: platformId })],
    [/^\/metadata\/media_filter\/include\/values$/, fc.oneof(
      { weight: 6, arbitrary: fc.array(fc.nat(60).map((n) => `@${n}`), { maxLength: 8 }) },
      { weight: 1, arbitrary: fc.integer({ min: 100, max: 1500 }).map((n) => Array.from({ length: n }, (_, i) => `@${i}`)) },
      { weight: 1, arbitrary: fc.array(platformId, { maxLength: 3 }) })],
  ];
  return fc.record({
    untyped: answerArbitrary(ROUTE.playlist),
    typed: fc.record(Object.fromEntries(TYPED.map((type) => [type, answerArbitrary(ROUTE.typed(type), filterOverrides)]))),
    type: fc.constantFrom(...PLAYLIST_TYPES),
  });
}

/**
 * A feed world: the playlist asked for (its type by turn, so every type is asked for), the bound playlists of the
 * plain site (their types drawn; new ones every `EPOCH` worlds), and one answer for every media list call, whose media
 * are the ones the playlists name (`@n` placeholders: the world's n-th list media) and others. Ids are fresh per world.
 */
export function feedWorlds(context: Context, sampling: Sampling): FeedWorld[] {
  const listOverrides = mediaOverrides(context, '/media/*');
  const arbitrary = fc.record({
    target: playlistArbitrary(context),
    bound: fc.array(playlistArbitrary(context), { minLength: context.bound.length, maxLength: context.bound.length }),
    list: answerArbitrary(ROUTE.mediaList, listOverrides, { long: (path) => (path === '/media' ? 150 : 30) }),
    where: fc.nat(5),
  });
  return worlds(arbitrary, sampling, (raw, run) => {
    const list = structuredClone(raw.list);
    const listIds = (list.media as Json[]).map((_, i) => freshId('zl', run, i));
    (list.media as Json[]).forEach((m, i) => { m.id = listIds[i]; });
    // `@n` names the n-th media of the list; past its end, a fresh id the list does not hold.
    const resolve = (value: Json) => JSON.parse(JSON.stringify(value).replace(/"@(\d+)"/g, (_, n: string) =>
      JSON.stringify(listIds[Number(n)] ?? freshId('zq', run, Number(n) % 1296))));
    const answers = (id: string, drawn: Json, type: PlaylistType): PlaylistAnswers => {
      const untyped = { ...structuredClone(drawn.untyped), id, playlist_type: type };
      const typed = type === 'watchlist' ? null : { ...resolve(drawn.typed[type]), id };
      return { id, type, untyped, typed };
    };
    // The plain site (its bound playlists read for every answer) five in six; the target one of them one in three.
    const europe = raw.where === 0 || context.bound.length === 0;
    const asBound = !europe && raw.where >= 4 ? context.bound[raw.where - 4] : undefined;
    const type = pick(PLAYLIST_TYPES, run);
    const target = answers(asBound ?? freshId('zp', run), raw.target, type);
    const bound = run % EPOCH === 0
      ? context.bound.map((id, i) => (id === target.id ? target : answers(id, raw.bound[i]!, raw.bound[i]!.type)))
      : null;
    const fixed = /^\/playlist_type$/;
    const playlists = [target, ...(bound ?? []).filter((b) => b !== target)];
    return {
      run, site: europe ? context.europeSite : context.site, target, bound, list,
      parts: [
        ...playlists.flatMap((p) => [{ route: ROUTE.playlist, value: p.untyped, fixed },
          ...(p.typed ? [{ route: ROUTE.typed(p.type), value: p.typed }] : [])]),
        { route: ROUTE.mediaList, value: list },
      ],
    };
  });
}
