// Section 7: what URL signing costs per answer (worker/docs/sealed-origin.md). The sandbox's signing site enforces URL
// token signing, and the worker signs every platform URL of its answers about content under no policy
// (worker/signing/). Measured in one run, like with like, on cached (HIT) answers:
//
// - the signing site's media answer (an ungated, ready video) and one page of its manual playlist, from the worker as
//   shipped (signed);
// - the same two answers from a second instance of the same worker bundle whose REELGATE_CONFIG lacks the site's
//   `url_signing` (unsigned), with the sandbox's enforcement for the site switched off for the section
//   (`PUT /_sandbox/sites/<site>/url-signing {"enforce":false}`) so its unsigned URLs are URLs that work: the fairest
//   comparison, same content, same bytes but for the signatures;
// - the same kinds of answer on the site that signs nothing (a media answer of the same shape where the catalog has
//   one; a page of its manual playlist of the same length), from the shipped worker.
//
// The two reelgates share one workerd process (so they compare on the same threads and memory), the sandbox has
// another, each Worker on a direct socket (lib/direct.mjs, as section 6): no dev proxy in front, whose cost would
// dilute the difference (section 1 finds it 40 % of a HIT's server CPU under `wrangler dev`). The load is section 1's
// (10 connections, closed loop), run in rounds (BENCH_SIGNING_ROUNDS, default 7, sharing BENCH_SECONDS between them,
// whole seconds each): in each round an answer's three cases run back to back, their order rotating, and the ratios
// are taken round by round between neighbours in time, so drift on a shared machine falls on both sides of a ratio.
// Each run has visitors of its own, so the abuse limit never answers. Beside req/s and latency, the CPU time the
// reelgates' workerd spent per answer (/proc, over all the rounds), steadier than req/s when other work shares the
// machine.
//
// Then the same answers inside workerd, without sockets or a load generator: a driver Worker in the reelgates' process
// asks each through a service binding, many in a row, the cases alternating call by call (see `inWorker`).
//
// Beside the answers, the CPU cost of signing one URL: in workerd, worker/signing/ as the worker bundles it
// (test/bench/signing-cost/, timed from outside: calls of n signings against calls of none), per scheme, and one
// answer's signatures, fresh (the first answer of a signing window) and remembered (every answer after, within the
// window); in Node, worker/signing/schemes.ts bundled by esbuild (MD5 from node:crypto, which Node's Web Crypto lacks)
// and the two primitives alone.
import { build } from 'esbuild';
import { createHash, createHmac, webcrypto } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { shippedConfig, startDirectReelgates } from '../lib/direct.mjs';
import { load, round } from '../lib/load.mjs';
import { answer, cpuSeconds, median, ratios, summarize, warm } from '../lib/rounds.mjs';
import { managementCalls, sandboxControls } from '../lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from '../lib/visitors.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_SIGNING_ROUNDS ?? 7);
/** Rounds of the in-worker comparison, a call of about 50 ms per case each. */
const IN_WORKER_ROUNDS = 40;
const PAGE_LENGTH = 10;
/** Visitors per measured run (its warm-up and its measured seconds); each may make 120 requests a minute. */
const VISITORS_PER_RUN = 500;
/** Past section 1's IPv4 visitors: every run's visitors are IPv6 /64s, one address shape for all. */
const FIRST_VISITOR = 400;

/** The platform URLs an answer hands out, and how many carry a signature. */
function urlsOf(body, delivery) {
  const urls = [];
  const walk = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith(delivery)) urls.push(value);
    } else if (value && typeof value === 'object') {
      for (const inner of Object.values(value)) walk(inner);
    }
  };
  walk(body);
  const signed = urls.filter((url) => /[?&](sig|token)=/.test(url)).length;
  return { platform: urls.length, distinct: new Set(urls).size, signed };
}

const shape = (media) => `${media.sources.length} sources, ${media.tracks.length} tracks, ${media.thumbnails.length} thumbnails`;

/** A ready video of `site` answered 200, among the catalog's published media; the first whose shape is `like`'s. */
async function pickMedia(worker, site, candidates, like) {
  let first = null;
  for (const id of candidates) {
    let got;
    for (let tries = 0; tries < 20; tries++) {
      got = await answer(worker, `/api/sites/${site}/media/${id}`);
      if (got.status !== 429) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(got.retryAfter, 5) * 1000));
    }
    if (got.status !== 200 || got.body.media_type !== 'video' || got.body.sources.length === 0) continue;
    if (!like || shape(got.body) === shape(like)) return { id, media: got.body };
    first ??= { id, media: got.body };
  }
  if (!first) throw new Error(`no ready, ungated video among ${candidates.join(', ')} of site ${site}`);
  return first;
}

/** What a URL of an answer gets from the platform: the first byte of a source, a poster. */
async function fetchStatus(url) {
  try {
    const response = await fetch(url, { headers: { range: 'bytes=0-0' } });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return `unreachable: ${error.message}`;
  }
}

const SIGNING_COST_BUNDLE = `${root}.build/bench/signing-cost.js`;

/** The Worker that times worker/signing/ and whole answers in workerd (test/bench/signing-cost/), bundled as reelgate is. */
async function buildSigningCost() {
  mkdirSync(`${root}.build/bench`, { recursive: true });
  await build({ entryPoints: [`${root}test/bench/signing-cost/index.js`], outfile: SIGNING_COST_BUNDLE, bundle: true, format: 'esm',
    target: 'es2022', external: ['cloudflare:*', 'node:*'], logLevel: 'warning' });
}

/** Its options, for the reelgates' workerd process: it binds both reelgates (`shipped`, `signing_off`). */
function signingCostOptions({ secrets, delivery, site }) {
  return { name: 'signing-cost', modules: true, scriptPath: SIGNING_COST_BUNDLE, compatibilityDate: '2026-04-01',
    serviceBindings: { shipped: 'shipped', signing_off: 'signing-off' },
    bindings: { REELGATE_CONFIG: shippedConfig(), SIGNED_SITE_SECRET: secrets.SIGNED_SITE_SECRET, DELIVERY_BASE_URL: delivery,
      SIGNING_SITE: site } };
}

/** The time of one call to the signing-cost Worker as its caller sees it, in microseconds. */
async function timedCall(origin, path, body) {
  const started = process.hrtime.bigint();
  const response = await fetch(`${origin}${path}`, body ? { method: 'POST', body: JSON.stringify(body) } : {});
  const text = await response.text();
  if (response.status !== 200) throw new Error(`signing-cost ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return { us: Number(process.hrtime.bigint() - started) / 1000, answer: JSON.parse(text) };
}

/**
 * Whole answers in the worker: each case's `path` asked `n` times in a row through a service binding (no sockets,
 * HTTP or load generator), n such that a call takes about 50 ms, the three cases alternating call by call for
 * IN_WORKER_ROUNDS rounds (their order rotating). The alternation is what makes the comparison hold on a shared
 * machine: here the same work runs up to half again slower for seconds at a time, in CPU time as in wall time, and a
 * call now and then takes several times its neighbours' time; only cases interleaved finely see the same machine, and
 * medians leave the spikes out. Microseconds per answer: a case's median call, less a call's own cost (a call of
 * none), over its answers; each ratio the median of the per-round ratios (the ratio of the sums kept beside). Each case
 * has visitors of its own, each seen once before the rounds.
 */
async function inWorker(origin, kinds, firstNet) {
  const VISITORS = 2048;
  const out = {};
  let net = firstNet;
  const call = async (query, n) => {
    const { us, answer } = await timedCall(origin, `${query}&n=${n}`);
    if ((answer.statuses['200'] ?? 0) !== n) throw new Error(`${query} through the binding: ${JSON.stringify(answer.statuses)}`);
    return us;
  };
  for (const [kind, cases] of Object.entries(kinds)) {
    const query = {};
    for (const [name, c] of Object.entries(cases)) {
      query[name] = `/hits?target=${c.origin === 'signing-off' ? 'signing_off' : 'shipped'}&path=${encodeURIComponent(c.path)}` +
        `&net=${net}&visitors=${VISITORS}`;
      net += VISITORS;
      await call(query[name], VISITORS);
    }
    const names = Object.keys(cases);
    const none = [];
    for (let i = 0; i < 5; i++) none.push(await call(query.signed, 0));
    const overhead = median(none);
    let n = 16;
    while (median([await call(query.signed, n), await call(query.signed, n), await call(query.signed, n)]) < 50_000 && n < 4096) n *= 2;
    const each = Object.fromEntries(names.map((name) => [name, []]));
    for (let r = 0; r < IN_WORKER_ROUNDS; r++) {
      for (const name of names.map((_, i) => names[(i + r) % names.length])) each[name].push(await call(query[name], n));
    }
    const total = (name) => each[name].reduce((sum, us) => sum + us - overhead, 0);
    const perAnswer = (name) => round((median(each[name]) - overhead) / n, 1);
    const perRound = (other) => each.signed.map((us, i) => (us - overhead) / (each[other][i] - overhead));
    const spread = perRound('unsigned');
    out[kind] = {
      answers_per_call: n,
      rounds: IN_WORKER_ROUNDS,
      call_overhead_us: round(overhead, 0),
      us_per_answer: Object.fromEntries(names.map((name) => [name, perAnswer(name)])),
      ratio: round(median(spread), 3),
      ratio_vs_unsigned_site: round(median(perRound('unsigned_site')), 3),
      ratio_per_round: { min: round(Math.min(...spread), 3), max: round(Math.max(...spread), 3) },
      // Spikes (a call several times slower than its neighbours) weigh in these; the medians above leave them out.
      ratio_of_sums: round(total('signed') / total('unsigned'), 3),
    };
  }
  return out;
}

/**
 * Microseconds per unit of `path` on the signing-cost Worker: calls of n units timed against calls of none, back to
 * back, n doubled until a call takes 40 ms or more; the median of seven pairs.
 */
async function perUnit(origin, path, body) {
  const call = async (n) => (await timedCall(origin, `${path}${path.includes('?') ? '&' : '?'}n=${n}`, body)).us;
  let n = 16;
  for (let i = 0; i < 3; i++) await call(n); // compile and warm
  while ((await call(n)) < 40_000 && n < 1 << 20) n *= 2;
  const samples = [];
  for (let i = 0; i < 7; i++) {
    const none = await call(0);
    samples.push((await call(n) - none) / n);
  }
  return round(median(samples), 2);
}

/** Microseconds per call of `fn` in this process: warmed, then the median of five timed batches of `n`. */
async function perCall(fn, n = 20_000) {
  for (let i = 0; i < 2_000; i++) await fn(i);
  const batches = [];
  for (let b = 0; b < 5; b++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    batches.push(Number(process.hrtime.bigint() - started) / 1000 / n);
  }
  return round(median(batches), 2);
}

/** worker/signing/schemes.ts in Node, bundled by esbuild; MD5 from node:crypto (Node's Web Crypto has none). */
async function nodeCosts(secret) {
  const outfile = `${root}.build/bench/signing-schemes.mjs`;
  globalThis.__benchSigningCrypto = {
    subtle: {
      digest: (algorithm, data) => (algorithm === 'MD5'
        ? Promise.resolve(createHash('md5').update(data).digest())
        : webcrypto.subtle.digest(algorithm, data)),
      importKey: (...args) => webcrypto.subtle.importKey(...args),
      sign: (...args) => webcrypto.subtle.sign(...args),
    },
  };
  await build({ entryPoints: [`${root}worker/signing/schemes.ts`], outfile, bundle: true, format: 'esm', platform: 'neutral',
    define: { crypto: 'globalThis.__benchSigningCrypto' }, logLevel: 'warning' });
  const { signUrl } = await import(`${pathToFileURL(outfile).href}?${Date.now()}`);
  const base = 'https://cdn.video-platform.example';
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const text = `videos/bench-AGVR6BZh.mp4:${exp}:${secret}`;
  // What a delivery JWT's HMAC covers: its header and payload, base64url (as schemes.ts makes them).
  const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const jwtInput = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ resource: '/v2/media/bench/poster.jpg', exp, width: '720' })}`;
  return {
    exp_sig: await perCall((i) => signUrl(new URL(`${base}/videos/bench${i}-AGVR6BZh.mp4`), exp, secret)),
    jwt: await perCall((i) => signUrl(new URL(`${base}/v2/media/bench${i}/poster.jpg?width=720`), exp, secret)),
    md5_alone: await perCall(() => createHash('md5').update(text).digest('hex'), 100_000),
    hmac_sha256_alone: await perCall(() => createHmac('sha256', secret).update(jwtInput).digest(), 100_000),
  };
}

export async function urlSigning({ secrets, seconds }, log) {
  const config = shippedConfig();
  const sites = Object.entries(config.sites);
  const signingSite = sites.find(([, site]) => site.url_signing)?.[0];
  const plainSite = sites.find(([, site]) => !site.url_signing && !site.policy)?.[0];
  if (!signingSite || !plainSite) throw new Error('wrangler.toml needs a site with url_signing and one with neither it nor a policy');
  const withoutSigning = (c) => {
    delete c.sites[signingSite].url_signing;
    return c;
  };

  log(`starting the sandbox and two reelgates on direct workerd sockets: as shipped, and without url_signing for ${signingSite}`);
  await buildSigningCost();
  const stack = await startDirectReelgates({ secrets, configs: { shipped: null, 'signing-off': withoutSigning },
    extra: (delivery) => [signingCostOptions({ secrets, delivery, site: signingSite })] });
  const started = Date.now();
  try {
    const { sandbox, workers } = stack;
    const signed = workers.shipped.origin;
    const off = workers['signing-off'].origin;
    const pidOf = (origin) => (origin === off ? workers['signing-off'].pid : workers.shipped.pid);
    const controls = sandboxControls(sandbox.origin);
    const enforcement = (body) => fetch(`${sandbox.origin}/_sandbox/sites/${signingSite}/url-signing`, body
      ? { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}).then((r) => r.json());
    const enforcedBefore = (await enforcement()).enforce;
    const enforcedDuring = (await enforcement({ enforce: false })).enforce;

    const catalog = await controls.catalog();
    const entry = (id) => catalog.sites.find((site) => site.id === id);
    const candidates = (site) => [...new Set([...entry(site).media.published, ...entry(site).media.with_subtitles])];
    log('picking the media: a ready, ungated video of the signing site, and one of the same shape on the plain site');
    const sealedMedia = await pickMedia(signed, signingSite, candidates(signingSite));
    const plainMedia = await pickMedia(signed, plainSite, candidates(plainSite), sealedMedia.media);
    const feedPath = (site, length) => `/api/sites/${site}/playlists/${entry(site).playlists.manual[0]}?page_length=${length}`;
    // The signing site's manual playlist holds fewer items than a page of PAGE_LENGTH: the plain site's page is asked
    // for as many cards as the signing site's page has, so both carry the same number of URLs.
    const signedItems = (await warm(signed, feedPath(signingSite, PAGE_LENGTH))).body.items.length;

    const kinds = {
      media: {
        signed: { origin: signed, path: `/api/sites/${signingSite}/media/${sealedMedia.id}` },
        unsigned: { origin: off, path: `/api/sites/${signingSite}/media/${sealedMedia.id}` },
        unsigned_site: { origin: signed, path: `/api/sites/${plainSite}/media/${plainMedia.id}` },
      },
      feed: {
        signed: { origin: signed, path: feedPath(signingSite, PAGE_LENGTH) },
        unsigned: { origin: off, path: feedPath(signingSite, PAGE_LENGTH) },
        unsigned_site: { origin: signed, path: feedPath(plainSite, signedItems) },
      },
    };
    log('warming every answer until the cache serves it (HIT)');
    for (const cases of Object.values(kinds)) {
      for (const c of Object.values(cases)) {
        c.pid = pidOf(c.origin);
        const got = await warm(c.origin, c.path);
        c.body_bytes = got.bytes;
        c.urls = urlsOf(got.body, sandbox.origin);
        c.answer = got.body;
      }
    }
    for (const c of Object.values(kinds.media)) c.shape = shape(c.answer);
    for (const c of Object.values(kinds.feed)) c.items = c.answer.items.length;
    // The URLs each answer hands out work: the signed ones with or without enforcement, the unsigned ones since it is off.
    const urlChecks = {};
    for (const [name, c] of Object.entries(kinds.media)) {
      urlChecks[name] = { first_source: await fetchStatus(c.answer.sources[0].url), poster: await fetchStatus(c.answer.poster) };
    }

    // Rounds: per round, each kind's three cases back to back (neighbours in time, so a round's ratios compare like
    // conditions on a shared machine), their order and the kinds' order rotating; each run with visitors of its own.
    const runs = Object.fromEntries(Object.entries(kinds).map(([kind, cases]) =>
      [kind, Object.fromEntries(Object.keys(cases).map((name) => [name, []]))]));
    // Whole seconds: autocannon ends a run on its one-second tick, so a fraction would run to the next second anyway.
    const perRun = Math.max(1, Math.round(seconds / ROUNDS));
    let nextVisitor = FIRST_VISITOR;
    log(`measuring ${Object.keys(kinds).length} × 3 cases, ${ROUNDS} rounds of ${perRun} s each, ${CONNECTIONS} connections`);
    const callsBefore = managementCalls(await controls.stats());
    for (let r = 0; r < ROUNDS; r++) {
      const kindOrder = Object.keys(kinds);
      if (r % 2) kindOrder.reverse();
      for (const kind of kindOrder) {
        const names = Object.keys(kinds[kind]);
        for (const name of names.map((_, i) => names[(i + r) % names.length])) {
          const c = kinds[kind][name];
          const visitors = rotatingVisitor(visitorAddresses(VISITORS_PER_RUN, nextVisitor));
          nextVisitor += VISITORS_PER_RUN;
          // Unrecorded: each of the run's visitors once (the worker hashes a new visitor once per isolate), and the JIT.
          await load({ origin: c.origin, path: c.path, nextHeaders: visitors, connections: CONNECTIONS, amount: VISITORS_PER_RUN });
          const cpuBefore = cpuSeconds(c.pid);
          const result = await load({ origin: c.origin, path: c.path, nextHeaders: visitors, connections: CONNECTIONS,
            durationSeconds: perRun });
          result.worker_cpu_s = round(cpuSeconds(c.pid) - cpuBefore, 2);
          runs[kind][name].push(result);
        }
      }
    }
    const upstreamCalls = managementCalls(await controls.stats()) - callsBefore;

    const out = {};
    for (const [kind, cases] of Object.entries(kinds)) {
      out[kind] = {};
      for (const [name, c] of Object.entries(cases)) {
        out[kind][name] = { path: c.path, worker: c.origin === off ? 'signing-off' : 'shipped', body_bytes: c.body_bytes, urls: c.urls,
          ...(c.shape ? { shape: c.shape } : {}), ...(c.items !== undefined ? { items: c.items } : {}), ...summarize(runs[kind][name]) };
      }
      out[kind].ratio = ratios(runs[kind].signed, runs[kind].unsigned);
      out[kind].ratio_vs_unsigned_site = ratios(runs[kind].signed, runs[kind].unsigned_site);
      log(`${kind}: signed ${out[kind].signed.requests_per_second} req/s, signing off ${out[kind].unsigned.requests_per_second}, ` +
        `plain site ${out[kind].unsigned_site.requests_per_second}; signed/unsigned ${out[kind].ratio.requests_per_second}× req/s ` +
        `(rounds: ${out[kind].ratio.rounds.map((v) => v.requests_per_second).join(', ')})`);
    }

    const cost = workers['signing-cost'].origin;
    log('whole answers in the worker, one after another through a service binding (no sockets, no load generator)');
    // Visitors past those of the load runs (each an IPv6 /64: 2001:db8:<net>::1).
    const lastNet = Number.parseInt(visitorAddresses(1, nextVisitor - 1)[0].split(':')[2], 16);
    const bound = (cases) => Object.fromEntries(Object.entries(cases).map(([name, c]) =>
      [name, { origin: c.origin === off ? 'signing-off' : 'shipped', path: c.path }]));
    const answers = await inWorker(cost, { media: bound(kinds.media), feed: bound(kinds.feed) }, lastNet + 1);
    for (const [kind, a] of Object.entries(answers)) {
      log(`${kind}: ${a.us_per_answer.signed} µs per answer signed, ${a.us_per_answer.unsigned} signing off, ` +
        `${a.us_per_answer.unsigned_site} plain site; ratio ${a.ratio}× (per round ${a.ratio_per_round.min}–${a.ratio_per_round.max})`);
    }

    log('the CPU cost of signing: worker/signing/ in workerd, then schemes.ts and the primitives in Node');
    const media = kinds.media.unsigned.answer;
    const page = kinds.feed.unsigned.answer;
    const workerd = {
      exp_sig: await perUnit(cost, '/exp-sig'),
      jwt: await perUnit(cost, '/jwt'),
      media_answer_fresh: await perUnit(cost, '/media?fresh=1', media),
      media_answer_remembered: await perUnit(cost, '/media?fresh=0', media),
      feed_page_fresh: await perUnit(cost, '/feed?fresh=1', page),
      feed_page_remembered: await perUnit(cost, '/feed?fresh=0', page),
      media_render_signed: await perUnit(cost, '/render', kinds.media.signed.answer),
      media_render_unsigned: await perUnit(cost, '/render', media),
    };
    const node = await nodeCosts(secrets.SIGNED_SITE_SECRET);
    const mediaUrls = kinds.media.signed.urls.platform;
    const feedUrls = kinds.feed.signed.urls.platform;
    const enforcedAfter = (await enforcement({ enforce: enforcedBefore })).enforce;
    // With enforcement back on: the signed answer's URLs still work, the unsigned answer's are refused.
    urlChecks.enforced = { signed: await fetchStatus(kinds.media.signed.answer.sources[0].url),
      unsigned: await fetchStatus(kinds.media.unsigned.answer.sources[0].url) };

    return {
      method: `Cached (HIT) answers on direct workerd sockets (no dev proxy), ${CONNECTIONS} connections in a closed loop, ` +
        `${ROUNDS} rounds of ${perRun} s per case (after ${VISITORS_PER_RUN} unrecorded requests), each kind's three ` +
        `cases back to back in a round, their order rotating, ${VISITORS_PER_RUN} new visitors per run; each figure is the ` +
        'median over the rounds, each ratio the median of the per-round ratios, but worker CPU per answer: the ' +
        'reelgates\' workerd process\'s CPU time (user + system) over all the rounds per answer. signed: the shipped ' +
        'worker; unsigned: the same bundle, in the same workerd process, with ' +
        `${signingSite}'s url_signing removed from REELGATE_CONFIG (sandbox enforcement off for the section); ` +
        `unsigned_site: the shipped worker's answer of the same kind on ${plainSite}, which signs nothing. ratio = signed / ` +
        'unsigned (req/s below 1 and latency above 1 mean signing costs). in_worker: the same answers asked through a ' +
        `service binding by a driver Worker in the same workerd, many per call, the cases alternating call by call for ` +
        `${IN_WORKER_ROUNDS} rounds; µs per answer from the median call, ratio the median of the rounds' ratios. ` +
        'per_url_microseconds.workerd: worker/signing/ ' +
        'bundled into a Worker, calls of n signings timed against calls of none (median of 7); fresh = every URL signed ' +
        'anew (the first answer of a signing window, 5 minutes as shipped), remembered = the isolate\'s memo (every ' +
        'later answer in the window). ' +
        'per_url_microseconds.node: worker/signing/schemes.ts bundled by esbuild, MD5 from node:crypto.',
      signing_site: signingSite,
      unsigned_site: plainSite,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      seconds_per_round: perRun,
      sandbox_enforcement: { before: enforcedBefore, during: enforcedDuring, after: enforcedAfter },
      url_checks: urlChecks,
      upstream_calls_during_runs: upstreamCalls,
      media: { ...out.media, in_worker: answers.media },
      feed: { ...out.feed, in_worker: answers.feed },
      per_url_microseconds: {
        workerd: { exp_sig: workerd.exp_sig, jwt: workerd.jwt },
        node,
      },
      per_answer_microseconds: {
        media: { platform_urls: mediaUrls, distinct_urls: kinds.media.signed.urls.distinct, fresh: workerd.media_answer_fresh,
          remembered: workerd.media_answer_remembered,
          // A media HIT is rendered per request (JSON text and its SHA-256 ETag): the signed answer's text is longer.
          render_signed: workerd.media_render_signed, render_unsigned: workerd.media_render_unsigned },
        feed: { items: kinds.feed.signed.items, platform_urls: feedUrls, distinct_urls: kinds.feed.signed.urls.distinct,
          fresh: workerd.feed_page_fresh, remembered: workerd.feed_page_remembered,
          note: 'a page rendered for everyone is held until the window turns: its HITs sign nothing in between' },
      },
      duration_s: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await stack.stop();
  }
}
