// Hostile input, generated: at least 10,000 requests from fast-check arbitraries (methods, paths with encoded and
// overlong parts, query strings, spoofed Authorization / Host / X-Forwarded-For / CF-Connecting-IP / dev-address
// headers, bodies) against the worker as deployed (DEV_MODE off, project `fuzz`). Every answer must keep the promises:
// no 5xx but the documented upstream ones, every error a v2 body, no secret anywhere, no redirect elsewhere, security
// headers, CORS for the configured origins only; and the upstream must have seen only the allowlisted read routes,
// with the worker's own credentials.
// A different seed each run explores more; REELGATE_FUZZ_SEED=<n> replays one (the seed is printed).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../worker/index.ts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  catalog, errorCode, get, isV2Error, leakedSecrets, printTally, resetSandbox, stats, tally, type Catalog,
} from './world.ts';

const config = JSON.parse(env.REELGATE_CONFIG) as {
  sites: Record<string, unknown>; policies: Record<string, unknown>; allowed_origins?: string[];
};
const RUNS = 10_000;
const CONCURRENCY = 4;
const SEED = env.REELGATE_FUZZ_SEED ? Number(env.REELGATE_FUZZ_SEED) : Date.now() % 2_147_483_647;
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
/** Upstream failures the public API documents (`upstream_unavailable`); any other 5xx is a failure. */
const DOCUMENTED_5XX = new Set([502, 503, 504]);
const STACK_TRACE = /\bat\s+\S+\s+\(|\.(ts|js|mjs):\d+|\bTypeError\b|\bReferenceError\b|\bSyntaxError\b/;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | null;
}

let seed: Catalog;
/** Fixture addresses by the country their geo answer names. */
let countryOf: Map<string, string | null>;

beforeAll(async () => {
  await resetSandbox();
  seed = await catalog();
  countryOf = new Map(seed.geo.fixtures.map((f) => [f.ip, f.expected_country]));
});

afterAll(() => printTally(t));

// ---------------------------------------------------------------------------------------------------- generators

function arbitraries() {
  const sites = Object.keys(config.sites);
  const ids = seed.sites.flatMap((s) => [...Object.values(s.playlists).flat(), ...s.players, ...Object.values(s.media).flat()]);
  const fixtures = seed.geo.fixtures.map((f) => f.ip);
  const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

  const nasty = fc.constantFrom(
    '..', '.', '%2e%2e', '%2E%2E%2F', '%2f', '%252f', '%5c', '\\', '%00', '%0d%0a', '%c0%af', '..%2f', '%2e', '~',
    '%20', ' ', 'ä', '%ff', '', 'http:', 'https:%2f%2fevil.example', '@evil.example', ';', '*', ':site', '%3f', '?',
    '#', '__proto__', 'constructor', 'index.html', 'reelgate.js', '..;', '%u002e', '\u2025', '\uff0e\uff0e',
  );
  const overlong = fc.integer({ min: 200, max: 3000 }).chain((n) => fc.constantFrom('a', '%2e', 'Z9', '/x').map((s) => s.repeat(Math.ceil(n / s.length))));
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ids) },
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
      '/ip_lookup/reelgate/192.0.2.10', '/cdn/x.jpg', '/', '/index.html', '//evil.example/x', '/http://evil.example/',
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

  return fc.record({ method, path, query, headers, body }).map((r): FuzzRequest => ({
    ...r,
    body: r.method === 'GET' || r.method === 'HEAD' ? null : r.body,
  }));
}

// ------------------------------------------------------------------------------------------------------- checks

/**
 * The v1 compatibility layer (/v1/, for integrations still on the deprecated API) answers errors in the v1 shape its
 * clients parse, `{code, message}` (spec, "Errors"); everywhere else only the v2 body is accepted.
 */
function isV1Error(text: string): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    return typeof body.code === 'string' && body.code !== '' && typeof body.message === 'string' && !('errors' in body);
  } catch {
    return false;
  }
}

interface Failure {
  request: FuzzRequest;
  problems: string[];
  status: number;
  body: string;
}

/** What an answer must never be; returns the broken rules. */
function check(request: FuzzRequest, status: number, headers: Headers, text: string): string[] {
  const problems: string[] = [];
  if (status >= 500 && !(DOCUMENTED_5XX.has(status) && errorCode(text) === 'upstream_unavailable')) {
    problems.push(`undocumented ${status}`);
  }
  if (status >= 400 && request.method !== 'HEAD' && !isV2Error(text) && !(request.path.startsWith('/v1/') && isV1Error(text))) {
    problems.push('error is not a v2 body');
  }
  if (status >= 400 && STACK_TRACE.test(text)) problems.push('error body looks like an exception or stack');
  const leaks = leakedSecrets({ text, headers });
  if (leaks.length) problems.push(`secret in response (${leaks.length})`);
  // Security headers on every answer, and CORS only ever for the configured origins (the embed script for any page).
  if (headers.get('x-content-type-options') !== 'nosniff') problems.push('no x-content-type-options: nosniff');
  const allowOrigin = headers.get('access-control-allow-origin');
  const origins = config.allowed_origins ?? [];
  if (allowOrigin !== null && !origins.includes(allowOrigin) && !origins.includes('*') &&
    !(allowOrigin === '*' && request.path.startsWith('/embed/'))) {
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

async function send(request: FuzzRequest): Promise<{ status: number; headers: Headers; text: string } | 'unsendable'> {
  let outgoing: Request;
  try {
    outgoing = new Request(`https://reelgate.test${request.path}${request.query ? `?${request.query}` : ''}`, {
      method: request.method,
      headers: request.headers,
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
  return { status: response.status, headers: response.headers, text };
}

// -------------------------------------------------------------------------------------------------------- cases

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

  it(`${RUNS} generated requests keep every promise, and the upstream sees only allowlisted reads`, async () => {
    const cases = fc.sample(arbitraries(), { numRuns: RUNS, seed: SEED });
    const failures: Failure[] = [];
    const statuses: Record<string, number> = {};
    let unsendable = 0;
    let next = 0;
    async function worker(): Promise<void> {
      while (next < cases.length) {
        const request = cases[next++]!;
        const answer = await send(request);
        if (answer === 'unsendable') {
          unsendable += 1;
          continue;
        }
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const problems = check(request, answer.status, answer.headers, answer.text);
        if (problems.length) failures.push({ request, problems, status: answer.status, body: answer.text.slice(0, 300) });
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const upstream = await stats();
    const offList = Object.keys(upstream.routes).filter((route) => !ALLOWLISTED_ROUTES.has(route));
    const expectedAuthorization = await sha256(`Bearer ${env.API_SECRET}`);
    const sent = RUNS - unsendable;
    t.fuzzCases += RUNS;
    t.requests += sent;
    t.failed += failures.length + offList.length + upstream.auth_failures + upstream.rate_limited;
    console.log(`fuzz: seed ${SEED}; ${RUNS} cases generated, ${sent} sent (${unsendable} not expressible as HTTP), ` +
      `${failures.length} failed; statuses ${JSON.stringify(statuses)}; upstream calls ${upstream.total_calls} on ` +
      `${JSON.stringify(upstream.routes)}, off the allowlist ${offList.length}, auth failures ${upstream.auth_failures}, ` +
      `upstream 429s ${upstream.rate_limited}`);
    for (const f of failures.slice(0, 8)) {
      console.log(`fuzz failure: ${f.problems.join('; ')}: ${f.request.method} ${f.request.path.slice(0, 120)}` +
        `${f.request.query ? `?${f.request.query.slice(0, 80)}` : ''} headers ${JSON.stringify(f.request.headers).slice(0, 300)} ` +
        `-> ${f.status} ${f.body.slice(0, 200)}`);
    }

    expect(sent).toBeGreaterThanOrEqual(RUNS * 0.9);
    expect(failures.map((f) => `${f.request.method} ${f.request.path.slice(0, 100)}: ${f.problems.join('; ')}`)).toEqual([]);
    expect(offList).toEqual([]);
    expect(upstream.auth_failures).toBe(0);
    // However the requests came, the worker never pushed the upstream past its limit.
    expect(upstream.rate_limited).toBe(0);
    // The upstream only ever saw the worker's own credential, whatever Authorization the clients sent.
    if (upstream.last_authorization_sha256 !== null) expect(upstream.last_authorization_sha256).toBe(expectedAuthorization);
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
    for (const path of ['/_sandbox/stats', '/_sandbox/catalog', '/ip_lookup/reelgate/192.0.2.10', '/cdn/poster.jpg']) {
      const answer = await get(path, { 'cf-connecting-ip': '192.0.2.10' });
      t.requests += 1;
      expect({ path, leaked: /total_calls|"fixtures"|"two_letter_country_code"/.test(answer.text) }).toEqual({ path, leaked: false });
    }
  });
});
