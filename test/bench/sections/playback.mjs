// Section 6: geo-bound playback. A large file (the sandbox's generated one, attached to a media of the europe site as
// an external rendition) downloaded in the same run, alternating, three ways: straight from the sandbox's CDN, through
// a bare pass-through Worker (test/bench/pass-through: the least any Worker in front of the CDN costs) and through
// reelgate's playback URL (token, geo check, network check, record lookup, stream). Throughput (MiB/s), time to first
// byte of a one-byte range, and the memory (resident set, sampled every 50 ms) and CPU time of each process while it
// streams. The bytes are counted as they arrive; nothing holds the file.
//
// Two sources, each downloaded the three ways:
// - paced (the figures the goal is judged on): the sandbox sends the file at BENCH_PLAYBACK_PACE MiB/s (default 100,
//   some 840 Mbit/s: a CDN edge's delivery to one viewer, far above any video's bitrate). The question a viewer asks:
//   does the worker slow my download?
// - unpaced: as fast as loopback allows (about 1 GiB/s straight). On this machine's two cores the client, the CDN and a
//   Worker in front share the CPU, so any second hop costs a third of the rate; the pass-through Worker shows that
//   floor, and what reelgate costs beyond it is its own.
// Measured on two stacks:
// - direct workerd sockets (lib/direct.mjs): each Worker in a workerd of its own, reached without a dev server, the
//   worker fetching the CDN over a loopback socket. This is the shape of production (no proxy in front of the Worker)
//   and the figures the goal (≥ 0.9× direct) is judged on; the worker's memory is its own workerd process alone.
// - `wrangler dev` (the servers of `npm run bench`), kept for comparison with earlier runs. There every request passes
//   wrangler's dev proxy (a workerd of its own listening on the public port, plus wrangler's Node process), which costs
//   a Worker in front of the CDN most of its throughput and, lacking back-pressure, holds bytes in memory: its
//   processes are reported apart from the user worker's workerd. BENCH_PLAYBACK_DEV=0 skips this part.
import { readdirSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { startDirectPlayback } from '../lib/direct.mjs';

const EUROPE_SITE = '93QufRA9';
const BERLIN = '192.0.2.30';
const FILE_MIB = Number(process.env.BENCH_PLAYBACK_MIB ?? 256);
const PACE_MIB_PER_S = Number(process.env.BENCH_PLAYBACK_PACE ?? 100);
const ROUNDS = Number(process.env.BENCH_PLAYBACK_ROUNDS ?? 3);
/** `wrangler dev` streams at a few MiB/s: one round each way is enough to compare. */
const DEV_ROUNDS = Number(process.env.BENCH_PLAYBACK_DEV_ROUNDS ?? 1);
const TTFB_SAMPLES = 20;
const DEV_IP = 'x-reelgate-dev-ip';
const MIB = 1024 * 1024;
/** What a player needs passed on, checked on the playback URL against the CDN's own answer. */
const PASSED_ON = ['content-length', 'accept-ranges', 'etag', 'last-modified', 'content-type'];

function stat(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  // utime and stime, in clock ticks (100 a second on Linux).
  return { comm: text.slice(text.indexOf('(') + 1, close), pgid: Number(fields[2]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
}

function rssBytes(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function cpuSeconds(pid) {
  try {
    return stat(pid).cpu;
  } catch {
    return 0;
  }
}

/**
 * The processes of one `wrangler dev` (its process group), by role: the dev proxy's workerd listens on the public
 * port; the user worker's workerd is the other one (it has the inspector); wrangler's Node processes.
 */
function devProcesses(pgid, port) {
  const out = { proxy_workerd: [], user_workerd: [], wrangler_node: [] };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { comm, pgid: group } = stat(entry);
      if (group !== pgid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (comm.startsWith('workerd')) {
        (cmdline.some((arg) => arg.endsWith(`=127.0.0.1:${port}`)) ? out.proxy_workerd : out.user_workerd).push(Number(entry));
      } else if (comm.startsWith('node')) {
        out.wrangler_node.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Samples the RSS of each named group of processes every 50 ms (peak of their sum) and their CPU time. */
function sampleProcesses(groups) {
  const names = Object.keys(groups);
  const rss = (name) => groups[name].reduce((sum, pid) => sum + rssBytes(pid), 0);
  const cpu = (name) => groups[name].reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const before = Object.fromEntries(names.map((name) => [name, rss(name)]));
  const cpuBefore = Object.fromEntries(names.map((name) => [name, cpu(name)]));
  const peak = { ...before };
  const sample = () => { for (const name of names) peak[name] = Math.max(peak[name], rss(name)); };
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    sample();
    return Object.fromEntries(names.map((name) => [name, { before: before[name], peak: peak[name], cpu: cpu(name) - cpuBefore[name] }]));
  };
}

/**
 * One GET on a connection of its own (as a player's request would be; a kept-alive socket the server has just closed
 * would otherwise fail the next request). Resolves once the headers are in, with the body as a Node stream.
 */
function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers, agent: false }, resolve);
    request.on('error', reject);
  });
}

/** Downloads a URL to nowhere; returns bytes, seconds and time to first byte. */
async function download(url, headers) {
  const started = performance.now();
  const response = await get(url, headers);
  if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  let bytes = 0;
  let first = null;
  for await (const chunk of response) {
    if (first === null) first = performance.now();
    bytes += chunk.length;
  }
  const seconds = (performance.now() - started) / 1000;
  if (bytes !== FILE_MIB * MIB) throw new Error(`${url}: the download ended after ${bytes} bytes`);
  return { bytes, seconds, ttfb_ms: (first ?? performance.now()) - started };
}

/** Time to the first byte of a one-byte range, the way a player starts. */
async function firstByte(url, headers) {
  const started = performance.now();
  const response = await get(url, { ...headers, range: 'bytes=0-0' });
  for await (const chunk of response) if (chunk.length) break;
  const ms = performance.now() - started;
  response.destroy();
  if (response.statusCode !== 206) throw new Error(`${url} answered ${response.statusCode} to a range`);
  return ms;
}

/** Reads a range to nowhere (the warm-up). */
async function drain(url, headers) {
  const response = await get(url, headers);
  for await (const chunk of response) void chunk;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const round = (value, digits = 1) => Number(value.toFixed(digits));

/** A media of the europe site playing the generated file, and its playback URL as a Berlin visitor gets it. */
async function playbackUrl(sandbox, worker, secrets, pace = null) {
  const source = `${sandbox}/cdn/generated/${FILE_MIB}.bin${pace ? `?pace=${pace}` : ''}`;
  const created = await fetch(`${sandbox}/v2/sites/${EUROPE_SITE}/media/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secrets.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      metadata: { title: 'Bench: large file', publish_start_date: '2020-01-01T00:00:00Z' },
      upload: { method: 'external', source_url: source, mime_type: 'video/mp4' },
    }),
  });
  if (created.status !== 201) throw new Error(`creating the bench media answered ${created.status}`);
  const { id } = await created.json();
  const answer = await fetch(`${worker}/api/sites/${EUROPE_SITE}/media/${id}`, { headers: { [DEV_IP]: BERLIN } });
  if (answer.status !== 200) throw new Error(`the worker's media answer was ${answer.status}`);
  const path = (await answer.json()).sources[0]?.url;
  if (!path?.startsWith('/api/play/')) throw new Error(`expected a playback URL, got ${path}`);
  return { source, through: `${worker}${path}`, file: new URL(source).pathname + new URL(source).search };
}

/** HEAD and a range on the playback URL pass on what the CDN says (the bench fails otherwise). */
async function checkHeaders(source, through) {
  const [cdn, worker] = await Promise.all([fetch(source, { method: 'HEAD' }), fetch(through, { method: 'HEAD', headers: { [DEV_IP]: BERLIN } })]);
  if (worker.status !== 200) throw new Error(`HEAD of the playback URL answered ${worker.status}: ${await worker.text()}`);
  for (const name of PASSED_ON) {
    if (worker.headers.get(name) === null || worker.headers.get(name) !== cdn.headers.get(name)) {
      throw new Error(`HEAD of the playback URL: ${name} is ${worker.headers.get(name)}, the CDN says ${cdn.headers.get(name)}`);
    }
  }
  const ranged = await fetch(through, { headers: { [DEV_IP]: BERLIN, range: 'bytes=1000-1999' } });
  const body = await ranged.arrayBuffer();
  if (ranged.status !== 206 || body.byteLength !== 1000 || ranged.headers.get('content-range') !== `bytes 1000-1999/${FILE_MIB * MIB}`) {
    throw new Error(`a range of the playback URL answered ${ranged.status}, ${body.byteLength} bytes, ${ranged.headers.get('content-range')}`);
  }
  return [...PASSED_ON, 'content-range (206)'];
}

/**
 * The three ways, alternating, `rounds` times each, then TTFB samples. `processes` are the groups of pids to watch
 * while the worker streams; `workerGroup` names the one that is the worker itself.
 */
async function measure({ source, bare, through, rounds, processes }) {
  const headers = { [DEV_IP]: BERLIN };
  // Warm-up: the first 32 MiB each way, so no measured run pays for the CDN's generator or a Worker being compiled.
  for (const [url, h] of [[source, {}], [bare, {}], [through, headers]]) {
    await drain(url, { ...h, range: `bytes=0-${Math.min(32, FILE_MIB) * MIB - 1}` });
  }
  const runs = { direct: [], passThrough: [], worker: [] };
  let memory = null;
  const total = (m) => Object.values(m).reduce((sum, p) => sum + p.peak - p.before, 0);
  const ways = [
    ['direct', () => download(source, {})],
    ['passThrough', () => download(bare, {})],
    ['worker', async () => {
      const stop = sampleProcesses(processes);
      const run = await download(through, headers);
      const sampled = stop();
      // Kept: the round with the largest growth of all watched processes together.
      if (!memory || total(sampled) > total(memory)) memory = sampled;
      return run;
    }],
  ];
  for (let i = 0; i < rounds; i++) {
    // Each round starts with another way, so none is always first or last.
    for (let k = 0; k < ways.length; k++) {
      const [name, run] = ways[(i + k) % ways.length];
      runs[name].push(await run());
    }
  }
  const ttfb = { direct: [], passThrough: [], worker: [] };
  for (let i = 0; i < TTFB_SAMPLES; i++) {
    ttfb.direct.push(await firstByte(source, {}));
    ttfb.passThrough.push(await firstByte(bare, {}));
    ttfb.worker.push(await firstByte(through, headers));
  }
  const rate = (list) => median(list.map((r) => r.bytes / MIB / r.seconds));
  const [direct, passThrough, worker] = [rate(runs.direct), rate(runs.passThrough), rate(runs.worker)];
  return {
    rounds,
    direct_mib_per_s: round(direct),
    pass_through_mib_per_s: round(passThrough),
    worker_mib_per_s: round(worker),
    throughput_ratio_vs_direct: round(worker / direct, 2),
    throughput_ratio_vs_pass_through: round(worker / passThrough, 2),
    ttfb_samples: TTFB_SAMPLES,
    direct_ttfb_median_ms: round(median(ttfb.direct)),
    pass_through_ttfb_median_ms: round(median(ttfb.passThrough)),
    worker_ttfb_median_ms: round(median(ttfb.worker)),
    // While reelgate streamed the file (the round with the largest growth): each watched process.
    processes_while_streaming: Object.fromEntries(Object.entries(memory).map(([name, m]) => [name, {
      rss_before_mib: round(m.before / MIB), rss_peak_mib: round(m.peak / MIB), growth_mib: round((m.peak - m.before) / MIB),
      cpu_s: round(m.cpu, 2) }])),
  };
}

/**
 * `secrets`: the sandbox-only values. `dev`: the `wrangler dev` servers of the run ({ sandbox, worker, passThrough,
 * workerProcess, workerPort }), or null to measure the direct sockets only.
 */
export async function playback({ secrets, dev }, log) {
  const result = { file_mib: FILE_MIB, goal_ratio_vs_direct: 0.9, pace_mib_per_s: PACE_MIB_PER_S };

  const stack = await startDirectPlayback({ secrets });
  try {
    const processes = { worker_workerd: [stack.worker.pid], cdn_workerd: [stack.sandbox.pid] };
    for (const [name, pace] of [['direct_sockets', PACE_MIB_PER_S], ['direct_sockets_unpaced', null]]) {
      log(`playback on direct workerd sockets, ${pace ? `paced at ${pace} MiB/s` : 'unpaced'}: ${FILE_MIB} MiB, ${ROUNDS} rounds each way, alternating`);
      const { source, through, file } = await playbackUrl(stack.sandbox.origin, stack.worker.origin, secrets, pace);
      result.passed_on ??= await checkHeaders(source, through);
      result[name] = await measure({ source, through, rounds: ROUNDS, bare: `${stack.passThrough.origin}${file}`, processes });
      const own = result[name].processes_while_streaming.worker_workerd;
      result[name].worker_memory = { process: 'the workerd running reelgate alone', ...own };
    }
  } finally {
    await stack.stop();
  }

  if (dev && process.env.BENCH_PLAYBACK_DEV !== '0') {
    log(`playback under wrangler dev (for comparison with earlier runs): ${DEV_ROUNDS} round(s) each way`);
    const { source, through, file } = await playbackUrl(dev.sandbox, dev.worker, secrets);
    const { proxy_workerd, user_workerd, wrangler_node } = devProcesses(dev.workerProcess.pid, dev.workerPort);
    result.wrangler_dev = await measure({
      source, through, rounds: DEV_ROUNDS, bare: `${dev.passThrough}${file}`,
      processes: { user_workerd, proxy_workerd, wrangler_node },
    });
  }
  return result;
}
