// Hostile input, generated: fast-check arbitraries (methods, paths with encoded and overlong parts, query strings,
// spoofed Authorization / Host / X-Forwarded-For / CF-Connecting-IP / dev-address headers, bodies) against the worker as
// deployed (DEV_MODE off, project `fuzz`). Every answer must keep the promises: no 5xx but the documented upstream ones,
// every error a v2 body (the v1 shape only for a v1 call), no secret anywhere, no redirect elsewhere, security headers,
// CORS for the configured origins only; and the upstream must have seen only the allowlisted read routes, with the
// worker's own credentials. A second arm sends the gateway (/v2, /v1, /admin) route-shaped calls with keys that work,
// so the promises are checked past authentication too (there the upstream may see any v2 route, never a 429 or a
// credential but the worker's).
//
// Reproducible by construction:
// - `npm test` (`npm run test:faults`) runs FIXED_SEEDS, 10,000 requests each, plus every case in fuzz-corpus.json
//   (each a concrete request that once broke a rule): the same requests on every run, so CI never fails by luck.
// - `npm run fuzz -- --runs <k> [--cases <n>]` hunts: k random seeds. Every seed is printed with the command that
//   replays it, and a failing case is printed as a corpus entry to paste into fuzz-corpus.json.
// - `FUZZ_SEED=<n> npm run test:faults -- --project fuzz` or `npm run fuzz -- --seed <n>` replays a seed
//   (REELGATE_FUZZ_SEED is an alias). test/faults/vitest.config.mts turns these into the FUZZ_* bindings.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../worker/index.ts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, V2_ROUTES } from '../../worker/gateway/v2-routes.ts';
import { V1_ROUTES } from '../../worker/gateway/v1/v1-migration.ts';
import { PLAYLIST_TYPES } from '../../worker/contract/v2-types.ts';
import corpus from './fuzz-corpus.json';
import { echoPath, escapingUrls } from '../worker/playlist-oracle.ts';
import {
  catalog, errorCode, get, isV2Error, leakedSecrets, printTally, resetWorld, sandbox, stableIds, stats, tally, type Catalog,
} from './world.ts';

const config = JSON.parse(env.REELGATE_CONFIG) as {
  sites: Record<string, unknown>; policies: Record<string, unknown>; allowed_origins?: string[];
};
/** The seeds `npm test` runs. Never random: new seeds are for `npm run fuzz`, and what it finds goes into the corpus. */
const FIXED_SEEDS = [1, 20_261_123, 1_234_567_891];
const DEFAULT_CASES = 10_000;
const CONCURRENCY = 4;
const MODE = env.FUZZ_MODE || 'fixed';
const SEEDS = env.FUZZ_SEEDS ? env.FUZZ_SEEDS.split(',').map(Number) : FIXED_SEEDS;
const CASES = env.FUZZ_CASES ? Number(env.FUZZ_CASES) : DEFAULT_CASES;
/** The gateway arm goes through D1 and the budget on every call: a quarter as many cases. */
const GATEWAY_CASES = Math.max(1, Math.round(CASES / 4));
const t = tally('fuzz (DEV_MODE off)');

/** The only upstream routes the public API may reach: the reads its feeds, media, players and geo need. */
const ALLOWLISTED_ROUTES = new Set([
  'GET /v2/sites/:site/playlists/:playlist/',
  'GET /v2/sites/:site/playlists/:playlist/:playlist_type/',
  'GET /v2/sites/:site/media/',
  'GET /v2/sites/:site/media/:media/',
  'GET /v2/sites/:site/media/:media/media_renditions/',
  'GET /v2/sites/:site/media/:media/text_tracks/',
  'GET /v2/sites/:site/players/:player/',
  'GET /ip_lookup/:client/:ip',
]);
/**
 * Upstream failures the public API documents (`upstream_unavailable`); any other 5xx is a failure but the v1 layer's
 * documented 501 (see `check`).
 */
const DOCUMENTED_5XX = new Set([502, 503, 504]);
const STACK_TRACE = /\bat\s+\S+\s+\(|\.(ts|js|mjs):\d+|\bTypeError\b|\bReferenceError\b|\bSyntaxError\b/;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** One generated request, exactly as a corpus entry holds it. */
interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | null;
}

/** An entry of fuzz-corpus.json: a request that once broke a rule, the rule, and where it was found. */
interface CorpusCase {
  rule: string;
  found: string;
  /** An HLS case: the upstream playlist behind `{{play}}` in the request's path (see `hlsPlayback`). */
  hls?: HlsUpstream;
  request: FuzzRequest;
}

/**
 * The upstream of an HLS corpus case: an `external` media of the site under a policy whose source
 * is `playlist` (served as written by the sandbox's test-only `/cdn/test-hls/echo/`), or `source`, a sandbox path
 * under `/cdn/test-hls/` (the generated oversize playlists). The case's request names its playback URL `{{play}}`.
 */
interface HlsUpstream {
  playlist?: string;
  source?: string;
}

/** An HLS answer may be at most this large: the rewriter's bounds keep a refused or rewritten playlist well below. */
const MAX_PLAYLIST_ANSWER = 16 * 1024 * 1024;

let seed: Catalog;
/** The gateway arm's credentials by placeholder: `{{rw}}` a read-write key for every site, `{{ro}}` a read key for one. */
const tokens: Record<string, string> = {};
/** Ids to draw from, by site: the same on any day (world.ts `stableIds`). */
let ids: Record<string, string[]>;
/** Fixture addresses by the country their geo answer names. */
let countryOf: Map<string, string | null>;

beforeAll(async () => {
  seed = await catalog();
  ids = await stableIds();
  await resetWorld();
  countryOf = new Map(seed.geo.fixtures.map((f) => [f.ip, f.expected_country]));
  tokens['{{admin}}'] = env.ADMIN_TOKEN;
  for (const [name, scopes, sites] of [['{{rw}}', ['read', 'write'], ['*']], ['{{ro}}', ['read'], [seed.sites[0]!.id]]] as const) {
    const created = await send({
      method: 'POST', path: '/admin/keys', query: '', body: JSON.stringify({ name: `fuzz ${name}`, scopes, sites }),
      headers: { authorization: 'Bearer {{admin}}', 'content-type': 'application/json' },
    });
    if (created === 'unsendable' || created.status !== 201) throw new Error(`could not create the fuzz's ${name} key`);
    tokens[name] = (JSON.parse(created.text) as { key: string }).key;
  }
});

afterAll(() => printTally(t));

// ---------------------------------------------------------------------------------------------------- generators

function arbitraries() {
  const sites = Object.keys(config.sites);
  const known = Object.keys(ids).sort().flatMap((site) => ids[site]!);
  const fixtures = seed.geo.fixtures.map((f) => f.ip);
  const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

  const nasty = fc.constantFrom(
    '..', '.', '%2e%2e', '%2E%2E%2F', '%2f', '%252f', '%5c', '\\', '%00', '%0d%0a', '%c0%af', '..%2f', '%2e', '~',
    '%20', ' ', 'ä', '%ff', '', 'http:', 'https:%2f%2fevil.example', '@evil.example', ';', '*', ':site', '%3f', '?',
    '#', '__proto__', 'constructor', 'index.html', 'reelgate.js', '..;', '%u002e', '\u2025', '\uff0e\uff0e',
  );
  const overlong = fc.integer({ min: 200, max: 3000 }).chain((n) => fc.constantFrom('a', '%2e', 'Z9', '/x').map((s) => s.repeat(Math.ceil(n / s.length))));
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{8}$/) },
    { weight: 2, arbitrary: nasty },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,12}$/) },
    { weight: 1, arbitrary: overlong },
  );
  const site = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...sites) }, { weight: 1, arbitrary: id });
  const segment = fc.oneof({ weight: 3, arbitrary: fc.webSegment() }, { weight: 2, arbitrary: nasty }, { weight: 2, arbitrary: id },
    { weight: 1, arbitrary: overlong });
  const trailing = fc.constantFrom('', '', '', '/', '//', '/..', '/%2e%2e/x', '?', '#x', '/.');
  const policy = fc.oneof(fc.constantFrom(...Object.keys(config.policies)), segment);

  const path = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(site, fc.constantFrom('playlists', 'media', 'players', 'Playlists', 'media_renditions', 'thumbnails'), id, trailing)
      .map(([s, kind, i, end]) => `/api/sites/${s}/${kind}/${i}${end}`) },
    { weight: 2, arbitrary: trailing.map((end) => `/api/geo${end}`) },
    { weight: 2, arbitrary: fc.tuple(policy, trailing).map(([p, end]) => `/api/gate/${p}${end}`) },
    { weight: 1, arbitrary: fc.tuple(segment, trailing).map(([f, end]) => `/embed/${f}${end}`) },
    { weight: 2, arbitrary: fc.tuple(site, fc.array(segment, { maxLength: 4 })).map(([s, rest]) => `/v2/sites/${s}/${rest.join('/')}`) },
    { weight: 1, arbitrary: fc.array(segment, { maxLength: 4 }).map((rest) => `/v1/${rest.join('/')}`) },
    { weight: 1, arbitrary: fc.constantFrom('/admin/keys', '/admin/audit', '/_sandbox/stats', '/_sandbox/reset',
      '/ip_lookup/reelgate/192.0.2.10', '/v2/media/x/poster.jpg', '/', '/index.html', '//evil.example/x', '/http://evil.example/',
      '/api', '/api/', '/api/sites', '/.well-known/x', '/%2e%2e/%2e%2e/etc/passwd') },
    { weight: 2, arbitrary: fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join('/')}`) },
  );

  const queryKey = fc.oneof(fc.constantFrom('page', 'page_length', 'seed', 'tags', 'q', 'url', 'callback', 'redirect',
    '__proto__', 'constructor', 'api_key', 'ip', 'site', 'page[]'), printable(20));
  const queryValue = fc.oneof(
    fc.integer({ min: -5, max: 200 }).map(String), fc.constantFrom('1e9', '99999999999', '0x10', 'NaN', ''),
    id, nasty, printable(40), overlong, fc.constantFrom('https://evil.example/', '..%2f..%2f', 'food,travel', 'a,'.repeat(30)),
  );
  const query = fc.array(fc.tuple(queryKey, queryValue, fc.boolean()), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v, encode]) => (encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`)).join('&'));

  const address = fc.oneof(fc.constantFrom(...fixtures), fc.ipV4(), fc.ipV6(), printable(50),
    fc.constantFrom('127.0.0.1', '10.0.0.1', '::1', '0.0.0.0', '255.255.255.255', '192.0.2.10, 203.0.113.12', 'unknown'));
  const authorization = fc.oneof(
    fc.constant(`Bearer ${env.API_SECRET}`), fc.constant(`Bearer ${env.GEO_API_KEY}`), fc.constant(env.API_SECRET),
    fc.stringMatching(/^rg_[A-Za-z0-9_-]{43}$/).map((k) => `Bearer ${k}`), printable(80).map((s) => `Bearer ${s}`),
    fc.constant('Basic YWRtaW46YWRtaW4='), printable(60),
  );
  const headers = fc.record({
    authorization,
    host: fc.oneof(fc.constantFrom('evil.example', 'localhost', 'api.video-platform.example', 'sandbox.test', '127.0.0.1:8788'), printable(40)),
    'x-forwarded-for': fc.array(address, { minLength: 1, maxLength: 3 }).map((a) => a.join(', ')),
    'cf-connecting-ip': address,
    'x-reelgate-dev-ip': address,
    'x-auth-key': fc.oneof(fc.constant(env.GEO_API_KEY), printable(40)),
    origin: fc.oneof(fc.constantFrom('https://evil.example', 'null', 'http://localhost:8787'), printable(40)),
    'if-none-match': fc.oneof(fc.constantFrom('*', '"x"', 'W/"abc"'), printable(40)),
    'content-type': fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'),
    'x-http-method-override': fc.constantFrom('DELETE', 'PATCH', 'POST'),
    cookie: printable(60),
  }, { requiredKeys: [] });
  const method = fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE');
  const body = fc.oneof(fc.constant(null), fc.json({ maxDepth: 3 }), printable(200),
    fc.constant(JSON.stringify({ metadata: { title: 'pwned', custom_params: { a: 'b' } }, upload: { method: 'external', source_url: 'https://evil.example/x.mp4' } })));

  const noBodyOnReads = (r: FuzzRequest): FuzzRequest => ({ ...r, body: r.method === 'GET' || r.method === 'HEAD' ? null : r.body });
  const hostile = fc.record({ method, path, query, headers, body }).map(noBodyOnReads);

  // The gateway with keys that work: route-shaped /v2 paths from the gateway's own table, the v1 routes with their
  // parameters, /admin; tokens by placeholder (`send` fills them in), so a case reads the same on every run.
  const knownId = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: id });
  /** A route of the table with its own method (mostly), ids filled in. */
  const v2Call = fc.tuple(fc.constantFrom(...V2_ROUTES), site, fc.array(knownId, { minLength: 3, maxLength: 3 }),
    fc.constantFrom(...PLAYLIST_TYPES), fc.constantFrom('', '/', '', '/', '', '/', '//', '/x'))
    .map(([route, s, [a, b, c], type, end]) => {
      const fill = [a, b, c];
      const segments = route.pattern.map((p) => (p === ':type' ? type : p.startsWith(':') ? fill.shift()! : p));
      return { method: route.method as string, path: `/v2/sites/${s}/${segments.join('/')}${end}` };
    });
  const v1Name = fc.constantFrom(...Object.keys(V1_ROUTES), 'videos/list', 'videos/show', 'channels/show', '', 'nothing/here');
  const v1Param = fc.tuple(fc.constantFrom('video_key', 'channel_key', 'player_key', 'track_key', 'conversion_key',
    'thumbnail_key', 'site_id', 'result_limit', 'result_offset', 'type', 'tag', 'tag_new', 'start_date', 'end_date',
    'api_format', 'api_key', 'api_signature'), fc.oneof(id, site, fc.constantFrom(...PLAYLIST_TYPES), queryValue))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  const gatewayTarget = fc.oneof(
    { weight: 6, arbitrary: v2Call },
    { weight: 4, arbitrary: fc.tuple(v1Name, fc.constantFrom('', '/'), fc.constantFrom('GET', 'POST'))
      .map(([n, end, m]) => ({ method: m, path: `/v1/${n}${end}` })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('/admin/keys', '/admin/keys/key_nothing', '/admin/audit', '/admin', '/v2', '/v1',
      '/admin/x'), fc.constantFrom('GET', 'POST', 'DELETE')).map(([path, m]) => ({ method: m, path })) },
  );
  const listParams = fc.array(fc.tuple(fc.constantFrom('q', 'page', 'page_length', 'sort'), fc.oneof(
    fc.constantFrom('1', '2', '50', 'created:desc', 'title:asc', 'tags:news', 'id:abc OR id:def'), queryValue)), { maxLength: 3 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
  const gatewayQuery = fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: query },
    { weight: 2, arbitrary: listParams }, { weight: 3, arbitrary: fc.array(v1Param, { maxLength: 5 }).map((p) => p.join('&')) });
  const v2Body = fc.record({
    metadata: fc.oneof(fc.dictionary(fc.constantFrom('title', 'name', 'tag', 'new_tag', 'start_date', 'end_date', 'custom_params',
      'release_channel', 'setup_config', 'description'), fc.oneof(fc.string(), fc.json({ maxDepth: 2 }).map((j) => JSON.parse(j) as unknown))), fc.jsonValue()),
    upload: fc.oneof(fc.record({ method: fc.constantFrom('external', 'direct', 'fetch'), source_url: fc.oneof(fc.webUrl(), printable(30)) }), fc.jsonValue()),
    relationships: fc.jsonValue(),
  }, { requiredKeys: [] }).map((b) => JSON.stringify(b));
  const gatewayHeaders = fc.record({
    authorization: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('Bearer {{rw}}', 'Bearer {{rw}}', 'Bearer {{ro}}') },
      { weight: 1, arbitrary: authorization },
    ),
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain'),
    'idempotency-key': fc.oneof({ weight: 6, arbitrary: fc.constantFrom('k-1', 'k-2', 'import-42') },
      { weight: 1, arbitrary: printable(20) }, { weight: 1, arbitrary: fc.constant('x'.repeat(300)) }),
    origin: fc.constantFrom('https://evil.example', 'http://localhost:8787'),
  }, { requiredKeys: ['authorization'] });
  const gatewayBody = fc.oneof(
    { weight: 4, arbitrary: v2Body },
    { weight: 2, arbitrary: fc.array(v1Param, { maxLength: 4 }).map((p) => p.join('&')) },
    { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.json({ maxDepth: 3 }), printable(100)) },
  );
  const gatewayMethod = fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS');
  const gateway = fc.record({
    target: gatewayTarget, own: fc.integer({ min: 0, max: 4 }).map((n) => n > 0), other: gatewayMethod, query: gatewayQuery,
    headers: gatewayHeaders, body: gatewayBody,
  }).map(({ target, own, other, headers, ...r }) => noBodyOnReads({
    method: own ? target.method : other, path: target.path, ...r,
    // The operator's routes with the operator's token, mostly.
    headers: own && target.path.startsWith('/admin') ? { ...headers, authorization: 'Bearer {{admin}}' } : headers,
  }));

  return { hostile, gateway };
}

// ------------------------------------------------------------------------------------------------------- checks

/**
 * The v1 compatibility layer answers a v1 call's errors in the v1 object its clients parse (worker/docs/gateway.md,
 * "The v1 compatibility layer"): exactly `{status: "error", code, title, message}`.
 */
function isV1Error(text: string): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    return Object.keys(body).sort().join() === 'code,message,status,title' && body.status === 'error' &&
      typeof body.code === 'string' && body.code !== '' && typeof body.message === 'string' && typeof body.title === 'string';
  } catch {
    return false;
  }
}

/**
 * A v1 call: a plain path under `/v1/` as the worker received it (after URL parsing). Only there may an error be in
 * the v1 shape; a bare `/v1`, or a path with dot segments, `//`, percent-encoding or overlong, is nobody's v1 call and
 * gets the v2 body like every other front door.
 */
export function isV1Call(pathname: string): boolean {
  return pathname.startsWith('/v1/') && pathname.length <= MAX_PATH_LENGTH && /^\/[A-Za-z0-9._~\-/]*$/.test(pathname) &&
    !pathname.includes('//') && !/(^|\/)\.\.?(\/|$)/.test(pathname);
}

interface Failure {
  /** Which of the seed's generated cases. */
  index: number;
  request: FuzzRequest;
  problems: string[];
  status: number;
  body: string;
}

/** How to run this seed again, as the hunt ran it. */
function replayCommand(fuzzSeed: number): string {
  const cases = CASES === DEFAULT_CASES ? '' : ` FUZZ_CASES=${CASES}`;
  return `FUZZ_SEED=${fuzzSeed}${cases} npm run test:faults -- --project fuzz   (or: npm run fuzz -- --seed ${fuzzSeed}` +
    `${cases ? ` --cases ${CASES}` : ''})`;
}

/** The rules a request breaks now (empty when it keeps them all, or cannot be sent). */
async function broken(request: FuzzRequest): Promise<string[]> {
  const answer = await send(request);
  return answer === 'unsendable' ? [] : check(request, answer.pathname, answer.status, answer.headers, answer.text);
}

/**
 * A smaller request that still breaks `rule`, for the corpus: greedily drops the query, the body, each header, each
 * path segment, and halves long segments, keeping every step that still fails. Bounded, and deterministic.
 */
async function minimise(request: FuzzRequest, rule: string): Promise<FuzzRequest> {
  let best = request;
  let budget = 80;
  const still = async (candidate: FuzzRequest): Promise<boolean> => {
    if (budget-- <= 0 || JSON.stringify(candidate) === JSON.stringify(best)) return false;
    if (!(await broken(candidate)).includes(rule)) return false;
    best = candidate;
    return true;
  };
  await still({ ...best, query: '' });
  await still({ ...best, body: null });
  for (const name of Object.keys(best.headers)) {
    const headers = { ...best.headers };
    delete headers[name];
    await still({ ...best, headers });
  }
  for (let changed = true; changed && budget > 0;) {
    changed = false;
    const segments = best.path.split('/');
    for (let i = segments.length - 1; i >= 1 && !changed; i--) {
      const without = [...segments.slice(0, i), ...segments.slice(i + 1)].join('/') || '/';
      if (await still({ ...best, path: without })) changed = true;
      else if (segments[i]!.length > 8) {
        const half = [...segments.slice(0, i), segments[i]!.slice(0, Math.ceil(segments[i]!.length / 2)), ...segments.slice(i + 1)];
        if (await still({ ...best, path: half.join('/') })) changed = true;
      }
    }
  }
  return best;
}

/** Prints a seed's failures: how to replay them, and each distinct one, made small, as a corpus entry to paste. */
async function reportFailures(fuzzSeed: number, replay: string, failures: Failure[]): Promise<void> {
  if (!failures.length) return;
  console.log(`fuzz: seed ${fuzzSeed} FAILED ${failures.length} case(s); replay with ${replay}`);
  const seen = new Set<string>();
  const entries: CorpusCase[] = [];
  for (const f of failures) {
    const rule = f.problems[0]!;
    const kind = `${rule} ${f.request.path.split('/').slice(0, 2).join('/')}`;
    if (seen.has(kind)) continue;
    seen.add(kind);
    console.log(`fuzz failure (case ${f.index}): ${f.problems.join('; ')}: ${f.request.method} ${f.request.path.slice(0, 120)}` +
      `${f.request.query ? `?${f.request.query.slice(0, 80)}` : ''} -> ${f.status} ${f.body.slice(0, 200)}`);
    entries.push({ rule, found: `npm run fuzz, seed ${fuzzSeed}, case ${f.index} (minimised)`, request: await minimise(f.request, rule) });
    if (entries.length === 8) break;
  }
  console.log(`fuzz: corpus entries for test/faults/fuzz-corpus.json ("cases"):\n${entries.map((e) => JSON.stringify(e)).join(',\n')}`);
}

/** What an answer must never be; returns the broken rules. `pathname` is the path the worker received. */
function check(request: FuzzRequest, pathname: string, status: number, headers: Headers, text: string): string[] {
  const problems: string[] = [];
  // Under a v1 call the same statuses come as the v1 object (v1's code CallUnavailable), plus the layer's 501
  // NotImplemented for a v1 route it does not translate (worker/docs/gateway.md, "The v1 compatibility layer").
  const v1Code = isV1Call(pathname) && isV1Error(text) ? (JSON.parse(text) as { code: string }).code : null;
  const documented = (DOCUMENTED_5XX.has(status) && (errorCode(text) === 'upstream_unavailable' || v1Code === 'CallUnavailable')) ||
    (status === 501 && v1Code === 'NotImplemented');
  if (status >= 500 && !documented) {
    problems.push(`undocumented ${status}`);
  }
  if (status >= 400 && request.method !== 'HEAD' && !isV2Error(text) && !(isV1Call(pathname) && isV1Error(text))) {
    problems.push(isV1Error(text) ? 'error is not a v2 body (v1 shape outside a v1 call)' : 'error is not a v2 body');
  }
  if (status >= 400 && STACK_TRACE.test(text)) problems.push('error body looks like an exception or stack');
  const leaks = leakedSecrets({ text, headers });
  if (leaks.length) problems.push(`secret in response (${leaks.length})`);
  // Security headers on every answer, and CORS only ever for the configured origins (the embed script for any page).
  if (headers.get('x-content-type-options') !== 'nosniff') problems.push('no x-content-type-options: nosniff');
  const allowOrigin = headers.get('access-control-allow-origin');
  const origins = config.allowed_origins ?? [];
  // An origin outside the list may read exactly one answer: the refusal that names it (403 origin_not_allowed, no data).
  const sentOrigin = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'origin')?.[1];
  const refusalToIt = status === 403 && allowOrigin === sentOrigin
    && (request.method === 'HEAD' || /"code":"origin_not_allowed"/.test(text));
  if (allowOrigin !== null && !origins.includes(allowOrigin) && !origins.includes('*') &&
    // `*` for the embed script and its files only, never an embed page (a page is framed, not read).
    !(allowOrigin === '*' && /^\/embed\/[^/]+$/.test(pathname)) && !refusalToIt) {
    problems.push(`CORS allows ${allowOrigin.slice(0, 60)}`);
  }
  if (headers.get('access-control-allow-credentials') === 'true') problems.push('CORS allows credentials');
  const location = headers.get('location');
  if (location && !location.startsWith('/') && !location.startsWith('https://reelgate.test/')) {
    problems.push(`redirects elsewhere: ${location.slice(0, 80)}`);
  }
  if (location?.startsWith('//')) problems.push(`protocol-relative redirect: ${location.slice(0, 80)}`);
  // DEV_MODE is off: the dev header must not pick the location.
  if (status === 200 && request.path.startsWith('/api/geo') && request.method === 'GET') {
    const dev = request.headers['x-reelgate-dev-ip'];
    const real = request.headers['cf-connecting-ip'];
    const devCountry = dev ? countryOf.get(dev.trim()) ?? null : null;
    const realCountry = real ? countryOf.get(real.trim()) ?? null : null;
    const answered = (JSON.parse(text) as { country: string | null }).country;
    if (devCountry && devCountry !== realCountry && answered === devCountry) problems.push('dev address override honoured with DEV_MODE off');
  }
  return problems;
}

interface Sent {
  /** The path the worker received: URL parsing has already resolved dot segments. */
  pathname: string;
  status: number;
  headers: Headers;
  text: string;
}

/** A header value with its credential placeholders (`{{rw}}`, `{{ro}}`, `{{admin}}`) filled in. */
function fill(value: string): string {
  return value.replace(/\{\{(rw|ro|admin)\}\}/g, (placeholder) => tokens[placeholder] ?? placeholder);
}

async function send(request: FuzzRequest): Promise<Sent | 'unsendable'> {
  let outgoing: Request;
  try {
    outgoing = new Request(`https://reelgate.test${request.path}${request.query ? `?${request.query}` : ''}`, {
      method: request.method,
      headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, fill(value)])),
      body: request.body,
      redirect: 'manual',
    });
  } catch {
    // Not expressible as an HTTP request (the URL or a header value is invalid): nothing a client could send.
    return 'unsendable';
  }
  // The worker's own fetch handler with its real bindings (outbound calls still reach the sandbox worker): the same
  // code path as SELF.fetch without the test runner's loopback, which costs ~30 times the request itself.
  const ctx = createExecutionContext();
  const response = await worker.fetch(outgoing, env as never, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { pathname: new URL(outgoing.url).pathname, status: response.status, headers: response.headers, text };
}

// -------------------------------------------------------------------------------------------------------- cases

describe('the corpus: every case the fuzz ever failed on, replayed as is (test/faults/fuzz-corpus.json)', () => {
  const cases = (corpus as unknown as { cases: CorpusCase[] }).cases;
  const label = (c: CorpusCase) => (c.hls
    ? `${c.request.method} ${c.request.path} of ${c.hls.source ?? JSON.stringify(c.hls.playlist)}`
    : `${c.request.method} ${c.request.path}`).slice(0, 90);
  it.each(cases.map((c) => [label(c), c.rule, c] as const))('%s (once: %s) keeps every promise', async (_label, _rule, c) => {
    await resetWorld();
    // An HLS case makes its media first: the upstream calls that costs are the setup's, not the case's.
    const request = c.hls ? { ...c.request, path: c.request.path.replace('{{play}}', await hlsPlayback(c.hls, c.request)) } : c.request;
    const before = c.hls ? (await stats()).routes : {};
    const answer = await send(request);
    t.fuzzCases += 1;
    expect(answer, 'a corpus case must be a request a client can send').not.toBe('unsendable');
    if (answer === 'unsendable') return;
    t.requests += 1;
    const problems = check(request, answer.pathname, answer.status, answer.headers, answer.text);
    if (c.hls) problems.push(...playlistProblems(answer));
    const upstream = await stats();
    // A call with a working gateway key may reach any v2 route; everything else only the public API's reads.
    const keyed = Object.values(c.request.headers).some((value) => /\{\{(rw|ro)\}\}/.test(value));
    const offList = keyed ? [] : Object.keys(upstream.routes)
      .filter((route) => !ALLOWLISTED_ROUTES.has(route) && upstream.routes[route]! > (before[route] ?? 0));
    if (upstream.auth_failures) problems.push(`upstream auth failures ${upstream.auth_failures}`);
    if (upstream.rate_limited) problems.push(`upstream 429s ${upstream.rate_limited}`);
    t.failed += problems.length + offList.length;
    expect({ problems, offList, status: answer.status, body: answer.text.slice(0, 200) })
      .toEqual({ problems: [], offList: [], status: answer.status, body: answer.text.slice(0, 200) });
  });
});

/**
 * The playback path of an HLS case's media: an `external` media of the site under a policy, made in the sandbox (as
 * a write key would through /v2), read through the worker by the case's own address (`cf-connecting-ip`), so the
 * URL is bound to the network the case then plays it from.
 */
async function hlsPlayback(hls: HlsUpstream, request: FuzzRequest): Promise<string> {
  const site = Object.entries(config.sites).find(([, s]) => typeof (s as { policy?: unknown }).policy === 'string')?.[0];
  if (!site) throw new Error('the shipped configuration has no site under a policy');
  const source = hls.source ?? echoPath(hls.playlist ?? '');
  const created = await sandbox(`/v2/sites/${site}/media/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      metadata: { title: 'A hostile playlist', publish_start_date: '2020-01-01T00:00:00Z' },
      upload: { method: 'external', source_url: `http://sandbox.test${source}`, mime_type: 'application/vnd.apple.mpegurl' },
    }),
  });
  if (created.status !== 201) throw new Error(`the sandbox did not make the HLS case's media: ${created.status} ${await created.text()}`);
  const { id } = await created.json<{ id: string }>();
  const ip = request.headers['cf-connecting-ip'] ?? '';
  const media = await send({ method: 'GET', path: `/api/sites/${site}/media/${id}`, query: '', headers: { 'cf-connecting-ip': ip }, body: null });
  if (media === 'unsendable' || media.status !== 200) {
    throw new Error(`the HLS case's media answered ${media === 'unsendable' ? media : `${media.status} ${media.text.slice(0, 200)}`}`);
  }
  const url = (JSON.parse(media.text) as { sources: Array<{ type: string; url: string }> }).sources
    .find((s) => s.type === 'application/vnd.apple.mpegurl')?.url;
  if (!url?.startsWith('/api/play/')) throw new Error(`the HLS case's media has no playback URL: ${media.text.slice(0, 200)}`);
  return url;
}

/**
 * What an answer to a playlist's playback URL must be (worker/docs/geo-and-playback.md, "Geo-bound playback", threat
 * model): the playlist rewritten, with nothing any player could fetch off the worker's origin and every URI line a
 * playback URL, or refused (502).
 */
function playlistProblems(answer: Sent): string[] {
  const problems: string[] = [];
  if (answer.text.length > MAX_PLAYLIST_ANSWER) problems.push(`oversize playlist answered (${answer.text.length} characters)`);
  if (answer.status === 200) {
    if (answer.headers.get('content-type') !== 'application/vnd.apple.mpegurl') {
      problems.push(`playlist answered as ${answer.headers.get('content-type')}`);
    }
    const escaping = escapingUrls(answer.text, `https://reelgate.test${answer.pathname}`);
    if (escaping.length) problems.push(`playlist passes a URL off the origin: ${escaping.slice(0, 3).join(' ').slice(0, 120)}`);
    const lines = answer.text.split(/\r\n|\r|\n/).filter((line) => line.trim() && !line.startsWith('#'));
    if (lines.some((line) => !line.startsWith('/api/play/'))) problems.push('playlist URI line is not a playback URL');
  } else if (answer.status !== 502) {
    problems.push(`playlist neither rewritten nor refused with 502: ${answer.status}`);
  }
  return problems;
}

describe('generated hostile requests (DEV_MODE off)', () => {
  it('with DEV_MODE off, x-reelgate-dev-ip picks neither the location nor the gate decision', async () => {
    const us = seed.geo.fixtures.find((f) => f.expected_country === 'US' && f.note.includes('clean'))!.ip;
    const gb = seed.geo.fixtures.find((f) => f.expected_country === 'GB' && f.note.includes('clean'))!.ip;
    const geo = await get('/api/geo', { 'cf-connecting-ip': us, 'x-reelgate-dev-ip': gb });
    t.requests += 1;
    expect(geo.status).toBe(200);
    expect(JSON.parse(geo.text)).toMatchObject({ country: 'US', source: 'geo-api' });
    const policy = Object.entries(config.policies).find(([, p]) => JSON.stringify(p).includes('"EU"'))?.[0];
    if (policy) {
      const gate = await get(`/api/gate/${policy}`, { 'cf-connecting-ip': us, 'x-reelgate-dev-ip': gb });
      t.requests += 1;
      expect(JSON.parse(gate.text)).toMatchObject({ allowed: false, country: 'US' });
    }
  });

  /** Sends the cases CONCURRENCY at a time and checks every answer against the promises. */
  async function sendAll(cases: readonly FuzzRequest[]):
  Promise<{ failures: Failure[]; statuses: Record<string, number>; unsendable: number }> {
    const failures: Failure[] = [];
    const statuses: Record<string, number> = {};
    let unsendable = 0;
    let next = 0;
    async function sender(): Promise<void> {
      while (next < cases.length) {
        const index = next++;
        const request = cases[index]!;
        const answer = await send(request);
        if (answer === 'unsendable') {
          unsendable += 1;
          continue;
        }
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const problems = check(request, answer.pathname, answer.status, answer.headers, answer.text);
        if (problems.length) failures.push({ index, request, problems, status: answer.status, body: answer.text.slice(0, 300) });
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    return { failures, statuses, unsendable };
  }

  it.each(SEEDS)(`seed %i (${MODE}): ${CASES} generated requests keep every promise, and the upstream sees only allowlisted reads`, async (fuzzSeed) => {
    const replay = replayCommand(fuzzSeed);
    console.log(`fuzz: seed ${fuzzSeed} (${MODE}), ${CASES} cases; replay with ${replay}`);
    await resetWorld();
    const cases = fc.sample(arbitraries().hostile, { numRuns: CASES, seed: fuzzSeed });
    const { failures, statuses, unsendable } = await sendAll(cases);

    const upstream = await stats();
    const offList = Object.keys(upstream.routes).filter((route) => !ALLOWLISTED_ROUTES.has(route));
    const expectedAuthorization = await sha256(`Bearer ${env.API_SECRET}`);
    const sent = CASES - unsendable;
    t.fuzzCases += CASES;
    t.requests += sent;
    t.failed += failures.length + offList.length + upstream.auth_failures + upstream.rate_limited;
    console.log(`fuzz: seed ${fuzzSeed}; ${CASES} cases generated, ${sent} sent (${unsendable} not expressible as HTTP), ` +
      `${failures.length} failed; statuses ${JSON.stringify(statuses)}; upstream calls ${upstream.total_calls} on ` +
      `${JSON.stringify(upstream.routes)}, off the allowlist ${offList.length}, auth failures ${upstream.auth_failures}, ` +
      `upstream 429s ${upstream.rate_limited}`);
    await reportFailures(fuzzSeed, replay, failures);

    expect(sent).toBeGreaterThanOrEqual(CASES * 0.9);
    expect(failures.map((f) => `case ${f.index}: ${f.request.method} ${f.request.path.slice(0, 100)}: ${f.problems.join('; ')}`)).toEqual([]);
    expect(offList).toEqual([]);
    expect(upstream.auth_failures).toBe(0);
    // However the requests came, the worker never pushed the upstream past its limit.
    expect(upstream.rate_limited).toBe(0);
    // The upstream only ever saw the worker's own credential, whatever Authorization the clients sent.
    if (upstream.last_authorization_sha256 !== null) expect(upstream.last_authorization_sha256).toBe(expectedAuthorization);
  });

  it.each(SEEDS)(`seed %i (${MODE}): ${GATEWAY_CASES} generated gateway calls with working keys keep every promise`, async (fuzzSeed) => {
    const replay = replayCommand(fuzzSeed);
    console.log(`fuzz gateway: seed ${fuzzSeed} (${MODE}), ${GATEWAY_CASES} cases; replay with ${replay}`);
    await resetWorld();
    await env.GATEWAY_DB!.batch(['idempotent_outcomes', 'audit_log'].map((table) => env.GATEWAY_DB!.prepare(`DELETE FROM ${table}`)));
    const cases = fc.sample(arbitraries().gateway, { numRuns: GATEWAY_CASES, seed: fuzzSeed });
    const { failures, statuses, unsendable } = await sendAll(cases);

    const upstream = await stats();
    const sent = GATEWAY_CASES - unsendable;
    t.fuzzCases += GATEWAY_CASES;
    t.requests += sent;
    t.failed += failures.length + upstream.auth_failures + upstream.rate_limited;
    console.log(`fuzz gateway: seed ${fuzzSeed}; ${GATEWAY_CASES} cases, ${sent} sent, ${failures.length} failed; statuses ` +
      `${JSON.stringify(statuses)}; upstream calls ${upstream.total_calls} on ${Object.keys(upstream.routes).length} routes, ` +
      `auth failures ${upstream.auth_failures}, upstream 429s ${upstream.rate_limited}`);
    await reportFailures(fuzzSeed, replay, failures);

    expect(sent).toBeGreaterThanOrEqual(GATEWAY_CASES * 0.9);
    expect(failures.map((f) => `case ${f.index}: ${f.request.method} ${f.request.path.slice(0, 100)}: ${f.problems.join('; ')}`)).toEqual([]);
    expect(upstream.auth_failures).toBe(0);
    expect(upstream.rate_limited).toBe(0);
    if (upstream.last_authorization_sha256 !== null) {
      expect(upstream.last_authorization_sha256).toBe(await sha256(`Bearer ${env.API_SECRET}`));
    }
  });

  it('a crowd of new visitors never pushes the geo lookups past the upstream\'s limit', async () => {
    const before = await stats();
    // 400 visitors nobody has located yet (documentation addresses without a geo fixture), 40 at a time.
    const crowd = ['203.0.113.', '198.51.100.'].flatMap((prefix) => Array.from({ length: 200 }, (_, i) => `${prefix}${i + 30}`));
    const sources: Record<string, number> = {};
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(crowd.slice(round * 40, round * 40 + 40).map((ip) =>
        get('/api/geo', { 'cf-connecting-ip': ip })));
      for (const answer of answers) {
        t.requests += 1;
        expect(answer.status).toBe(200);
        const source = (JSON.parse(answer.text) as { source: string }).source;
        sources[source] = (sources[source] ?? 0) + 1;
      }
    }
    const after = await stats();
    console.log(`geo crowd: 400 new visitors located by ${JSON.stringify(sources)}; upstream 429s ` +
      `${after.rate_limited - before.rate_limited}, peak ${after.peak_calls_per_minute} accepted in any 60 s`);
    t.failed += after.rate_limited - before.rate_limited;
    expect(after.rate_limited - before.rate_limited).toBe(0);
    expect(after.peak_calls_per_minute).toBeLessThanOrEqual(60);
  });

  it('the sandbox controls and the upstream routes are not reachable through the worker', async () => {
    for (const path of ['/_sandbox/stats', '/_sandbox/catalog', '/ip_lookup/reelgate/192.0.2.10', '/videos/x-y.mp4']) {
      const answer = await get(path, { 'cf-connecting-ip': '192.0.2.10' });
      t.requests += 1;
      expect({ path, leaked: /total_calls|"fixtures"|"two_letter_country_code"/.test(answer.text) }).toEqual({ path, leaked: false });
    }
  });
});
