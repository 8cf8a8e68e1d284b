// Section 6: geo-bound playback. A large file (the sandbox's generated one, attached to a media of the europe site as
// an external rendition) downloaded in the same run, alternating, three ways: straight from the sandbox's CDN, through
// a bare pass-through Worker (test/bench/pass-through: the floor any Worker in front of the CDN pays under `wrangler
// dev`), and through reelgate's playback URL (token, geo check, network check, record lookup, stream). Throughput
// (MiB/s), time to first byte of a one-byte range, and reelgate's peak memory (resident set of its workerd processes,
// sampled every 50 ms while it streams). The bytes are counted as they arrive; nothing holds the file.
import { readdirSync, readFileSync } from 'node:fs';

const EUROPE_SITE = '93QufRA9';
const BERLIN = '192.0.2.30';
const FILE_MIB = Number(process.env.BENCH_PLAYBACK_MIB ?? 256);
const ROUNDS = Number(process.env.BENCH_PLAYBACK_ROUNDS ?? 2);
const TTFB_SAMPLES = 20;
const DEV_IP = 'x-reelgate-dev-ip';

/** Every process in a process group (wrangler dev and the workerd it runs), with its command name. */
function groupProcesses(pgid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push({ pid: Number(entry), comm });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function rssBytes(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the summed RSS of the group's workerd processes every 50 ms until stopped. */
function sampleMemory(pgid) {
  const pids = groupProcesses(pgid).filter((p) => p.comm.startsWith('workerd')).map((p) => p.pid);
  const read = () => pids.reduce((sum, pid) => sum + rssBytes(pid), 0);
  const before = read();
  let peak = before;
  const timer = setInterval(() => { peak = Math.max(peak, read()); }, 50);
  return { before, stop: () => { clearInterval(timer); peak = Math.max(peak, read()); return { before, peak, processes: pids.length }; } };
}

/** Downloads a URL to nowhere; returns bytes, seconds and time to first byte. */
async function download(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body.getReader();
  let bytes = 0;
  let first = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first === null) first = performance.now();
    bytes += value.length;
  }
  const seconds = (performance.now() - started) / 1000;
  return { bytes, seconds, ttfb_ms: (first ?? performance.now()) - started };
}

/** Time to the first byte of a one-byte range, the way a player starts. */
async function firstByte(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers: { ...headers, range: 'bytes=0-0' } });
  const reader = response.body.getReader();
  await reader.read();
  const ms = performance.now() - started;
  await reader.cancel();
  if (response.status !== 206) throw new Error(`${url} answered ${response.status} to a range`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const round = (value, digits = 1) => Number(value.toFixed(digits));
const MIB = 1024 * 1024;

export async function playback({ sandbox, worker, passThrough, secrets, workerProcess }, log) {
  const source = `${sandbox}/cdn/generated/${FILE_MIB}.bin`;
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
  const media = await answer.json();
  const path = media.sources[0]?.url;
  if (!path?.startsWith('/api/play/')) throw new Error(`expected a playback URL, got ${path}`);
  const through = `${worker}${path}`;
  const headers = { [DEV_IP]: BERLIN };

  log(`playback: ${FILE_MIB} MiB, ${ROUNDS} rounds each way, alternating`);
  const bare = `${passThrough}/cdn/generated/${FILE_MIB}.bin`;
  const direct = [];
  const viaBare = [];
  const viaWorker = [];
  let memory = null;
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await download(source, {}));
    viaBare.push(await download(bare, {}));
    const sampler = workerProcess ? sampleMemory(workerProcess.pid) : null;
    viaWorker.push(await download(through, headers));
    const sampled = sampler?.stop();
    if (sampled && (!memory || sampled.peak > memory.peak)) memory = sampled;
  }
  for (const run of [...direct, ...viaBare, ...viaWorker]) {
    if (run.bytes !== FILE_MIB * MIB) throw new Error(`a download ended after ${run.bytes} bytes`);
  }
  const ttfbDirect = [];
  const ttfbBare = [];
  const ttfbWorker = [];
  for (let i = 0; i < TTFB_SAMPLES; i++) {
    ttfbDirect.push(await firstByte(source, {}));
    ttfbBare.push(await firstByte(bare, {}));
    ttfbWorker.push(await firstByte(through, headers));
  }
  const rate = (runs) => median(runs.map((r) => r.bytes / MIB / r.seconds));
  const directRate = rate(direct);
  const bareRate = rate(viaBare);
  const workerRate = rate(viaWorker);
  return {
    file_mib: FILE_MIB,
    rounds: ROUNDS,
    direct_mib_per_s: round(directRate),
    pass_through_mib_per_s: round(bareRate),
    worker_mib_per_s: round(workerRate),
    throughput_ratio_vs_direct: round(workerRate / directRate, 2),
    throughput_ratio_vs_pass_through: round(workerRate / bareRate, 2),
    goal_ratio_vs_direct: 0.9,
    ttfb_samples: TTFB_SAMPLES,
    direct_ttfb_median_ms: round(median(ttfbDirect)),
    pass_through_ttfb_median_ms: round(median(ttfbBare)),
    worker_ttfb_median_ms: round(median(ttfbWorker)),
    worker_memory: memory
      ? { rss_before_mib: round(memory.before / MIB), rss_peak_mib: round(memory.peak / MIB),
        growth_mib: round((memory.peak - memory.before) / MIB), workerd_processes: memory.processes }
      : { skipped: 'no worker process to sample' },
  };
}
