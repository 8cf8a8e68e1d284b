// Section 8: what recording metrics costs a cached answer (the goal: the cached feed's rate with recording on against
// recording off, in the same run, at a ratio ≥ 0.97). The worker counts every answer in its isolate (worker/metrics/:
// `count` is a map update, no I/O) and sends the tally to the `MetricsObject` Durable Object every
// `metrics.flush_seconds` (10 as shipped) in the background; `metrics: { record: false }` turns all of it off.
//
// Two instances of the same worker bundle, on direct workerd sockets in one workerd process (lib/direct.mjs, as
// section 7: same threads, same memory, no dev proxy to dilute the difference), each with its own KV, D1 and Durable
// Objects (its METRICS object among them, so the flushes' RPC and SQLite writes land in the process measured):
// `recording-on` runs the REELGATE_CONFIG shipped in wrangler.toml (recording on, its default), `recording-off` the
// same with `metrics.record` false. Both answer the same cached (HIT) page of the unbound demo site's manual playlist
// (section 1's feed). Section 1's load (10 connections, closed loop) in rounds (BENCH_METRICS_ROUNDS, default 16, sharing
// BENCH_SECONDS between them, whole seconds each, at least 2): in each round the two back to back, the order alternating, each run
// after an unrecorded warm-up with visitors of its own (so the abuse limit never answers); ratio = on / off, the median
// of the per-round ratios. Beside req/s and latency, the workerd process's CPU time per answer over all the rounds
// (/proc), steadier than req/s when other work shares the machine. At the end, each instance's own count of what it
// answered (`/admin/metrics`, OpenMetrics) shows that one recorded every answer and the other nothing.
import { shippedConfig, startDirectReelgates } from '../lib/direct.mjs';
import { load, round } from '../lib/load.mjs';
import { cpuSeconds, median, ratios, summarize, warm } from '../lib/rounds.mjs';
import { managementCalls, sandboxControls } from '../lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from '../lib/visitors.mjs';

const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 16);
/** Visitors per measured run (its warm-up and its measured seconds); each may make 120 requests a minute. */
const VISITORS_PER_RUN = 500;
/** Past section 1's IPv4 visitors: every run's visitors are IPv6 /64s, one address shape for all. */
const FIRST_VISITOR = 400;
/** The goal: the cached feed's rate with recording on at least this share of its rate with it off. */
const GOAL_RATIO = 0.97;
/** The admin token of this section's stack only (it reads each instance's own counts at the end). */
const ADMIN_TOKEN = 'bench-metrics-admin-token';

/** `metrics` as the worker reads it (worker/config.ts parseMetrics): record defaults to true, flush_seconds to 10. */
const effective = (config) => ({ record: config.metrics?.record ?? true, flush_seconds: config.metrics?.flush_seconds ?? 10 });

/** An instance's totals since it started, from its own `/admin/metrics` (OpenMetrics: `reelgate_<metric>_total{...} n`). */
async function recorded(origin) {
  try {
    const response = await fetch(`${origin}/admin/metrics?format=openmetrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await response.text();
    if (!response.ok) return { error: `/admin/metrics answered ${response.status}: ${text.slice(0, 160)}` };
    const sum = (family, where = () => true) => text.split('\n')
      .filter((line) => line.startsWith(`${family}_total`) && where(line))
      .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    return { requests: sum('reelgate_requests'), api_2xx: sum('reelgate_requests', (l) => l.includes('door="api"') && l.includes('class="2xx"')),
      feed_hits: sum('reelgate_cache', (l) => l.includes('kind="feed"') && l.includes('state="HIT"')) };
  } catch (error) {
    return { error: error.message };
  }
}

export async function metricsRecording({ secrets, seconds }, log) {
  const config = shippedConfig();
  const site = Object.entries(config.sites).find(([, s]) => !s.url_signing && !s.policy)?.[0];
  if (!site) throw new Error('wrangler.toml needs a site with neither url_signing nor a policy');
  const recordingOff = (c) => {
    c.metrics = { ...c.metrics, record: false };
    return c;
  };
  const settings = { on: effective(config), off: effective(recordingOff(shippedConfig())) };
  if (!settings.on.record) throw new Error('the shipped REELGATE_CONFIG has metrics.record false: nothing to compare');

  log('starting the sandbox and two reelgates on direct workerd sockets: as shipped (recording on), and with metrics.record false');
  const stack = await startDirectReelgates({ secrets: { ...secrets, ADMIN_TOKEN },
    configs: { 'recording-on': null, 'recording-off': recordingOff } });
  const started = Date.now();
  try {
    const { sandbox, workers } = stack;
    const controls = sandboxControls(sandbox.origin);
    const catalog = await controls.catalog();
    const playlist = catalog.sites.find((s) => s.id === site).playlists.manual[0];
    const path = `/api/sites/${site}/playlists/${playlist}`;
    const cases = {
      on: { origin: workers['recording-on'].origin, pid: workers['recording-on'].pid, sent: 0 },
      off: { origin: workers['recording-off'].origin, pid: workers['recording-off'].pid, sent: 0 },
    };
    if (!cases.on.pid) throw new Error('could not find the reelgates\' workerd process (its CPU time is a figure of this section)');
    log(`warming ${path} on both until the cache serves it (HIT)`);
    for (const c of Object.values(cases)) {
      const got = await warm(c.origin, path);
      c.body_bytes = got.bytes;
      c.items = got.body.items?.length;
    }

    const runs = { on: [], off: [] };
    // Whole seconds: autocannon ends a run on its one-second tick, so a fraction would run to the next second anyway.
    const perRun = Math.max(2, Math.round(seconds / ROUNDS));
    let nextVisitor = FIRST_VISITOR;
    log(`measuring on and off, ${ROUNDS} rounds of ${perRun} s each, ${CONNECTIONS} connections, the order alternating`);
    const callsBefore = managementCalls(await controls.stats());
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of r % 2 ? ['off', 'on'] : ['on', 'off']) {
        const c = cases[name];
        const visitors = rotatingVisitor(visitorAddresses(VISITORS_PER_RUN, nextVisitor));
        nextVisitor += VISITORS_PER_RUN;
        // Unrecorded: each of the run's visitors once (the worker hashes a new visitor once per isolate), and the JIT.
        const warmUp = await load({ origin: c.origin, path, nextHeaders: visitors, connections: CONNECTIONS, amount: VISITORS_PER_RUN });
        const cpuBefore = cpuSeconds(c.pid);
        const result = await load({ origin: c.origin, path, nextHeaders: visitors, connections: CONNECTIONS, durationSeconds: perRun });
        result.worker_cpu_s = round(cpuSeconds(c.pid) - cpuBefore, 2);
        c.sent += warmUp.requests + result.requests;
        runs[name].push(result);
      }
    }
    const upstreamCalls = managementCalls(await controls.stats()) - callsBefore;

    const on = summarize(runs.on);
    const off = summarize(runs.off);
    const ratio = ratios(runs.on, runs.off);
    const perRound = ratio.rounds.map((v) => v.requests_per_second);
    const counts = { on: await recorded(cases.on.origin), off: await recorded(cases.off.origin) };
    const ms = (us) => round(us / 1000, 3);
    log(`cached feed: recording on ${on.requests_per_second} req/s, off ${off.requests_per_second}; on/off ${ratio.requests_per_second}× ` +
      `(rounds: ${perRound.join(', ')}); CPU per answer ${ms(on.worker_cpu_us_per_request)} ms on, ${ms(off.worker_cpu_us_per_request)} ms off ` +
      `(${ratio.worker_cpu_per_request}×)`);
    log(`counted by the instances: on ${counts.on.error ?? `${counts.on.requests} requests (${counts.on.feed_hits} feed HITs)`}, ` +
      `off ${counts.off.error ?? `${counts.off.requests} requests`}; sent by the bench: on ${cases.on.sent}, off ${cases.off.sent} (besides the few asks that warmed the cache)`);

    return {
      method: `One cached (HIT) feed page (${path}, the unbound site ${site}'s manual playlist, default page length) from two ` +
        'instances of the same worker bundle in one workerd process, on direct sockets (no dev proxy): recording-on runs ' +
        'the REELGATE_CONFIG shipped in wrangler.toml, recording-off the same with metrics.record false. ' +
        `${CONNECTIONS} connections in a closed loop, ${ROUNDS} rounds of ${perRun} s per case (after ${VISITORS_PER_RUN} ` +
        `unrecorded requests), the two back to back in a round, the order alternating, ${VISITORS_PER_RUN} new visitors per run. ` +
        'Each figure is the median over the rounds, ratio the median of the per-round ratios (on / off: below 1 means ' +
        'recording costs), but CPU per answer: the workerd process\'s CPU time (user + system, its METRICS Durable Object ' +
        'included) over all the rounds per answer.',
      site,
      path,
      items: cases.on.items,
      body_bytes: { on: cases.on.body_bytes, off: cases.off.body_bytes },
      metrics_config: settings,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      seconds_per_round: perRun,
      feed_rps_on: on.requests_per_second,
      feed_rps_off: off.requests_per_second,
      ratio: ratio.requests_per_second,
      ratio_per_round: { min: Math.min(...perRound), max: Math.max(...perRound), median: round(median(perRound), 3) },
      goal_ratio: GOAL_RATIO,
      meets_goal: ratio.requests_per_second >= GOAL_RATIO,
      cpu_ms_per_answer_on: ms(on.worker_cpu_us_per_request),
      cpu_ms_per_answer_off: ms(off.worker_cpu_us_per_request),
      cpu_ratio: ratio.worker_cpu_per_request,
      latency_ms_on: on.latency_ms,
      latency_ms_off: off.latency_ms,
      latency_ratio: { mean: ratio.mean_latency, p50: ratio.p50_latency, p99: ratio.p99_latency },
      on,
      off,
      per_round: ratio.rounds,
      // answered_*: the load runs' completed requests (warm-ups included), not the few asks that warmed the cache.
      recorded: { on: counts.on, off: counts.off, answered_on: cases.on.sent, answered_off: cases.off.sent },
      upstream_calls_during_runs: upstreamCalls,
      duration_s: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await stack.stop();
  }
}
