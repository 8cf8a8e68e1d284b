// Like-with-like comparisons of two reelgates on direct workerd sockets, in rounds (section 8; the same method as
// section 7, whose copies of these helpers stay in sections/url-signing.mjs): asking an answer until the cache serves
// it, the CPU time of a workerd process from /proc, and each case's rounds summed up with ratios taken round by round
// between neighbours in time, so drift on a shared machine falls on both sides of a ratio.
import { readdirSync, readFileSync } from 'node:fs';
import { round } from './load.mjs';

export const DEV_IP = 'x-reelgate-dev-ip';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The CPU time (user and system) a process has used, in seconds; 0 when it cannot be read. */
export function cpuSeconds(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks (100 a second on Linux)
  } catch {
    return 0;
  }
}

/** One answer, read whole: status, cache state, text and its size, the JSON body when it is a 200. */
export async function answer(origin, path, visitor = '2001:db8:ffff::1') {
  const response = await fetch(`${origin}${path}`, { headers: { [DEV_IP]: visitor, 'accept-encoding': 'identity' } });
  const text = await response.text();
  return { status: response.status, cache: response.headers.get('x-reelgate-cache'), text, bytes: Buffer.byteLength(text),
    body: response.ok ? JSON.parse(text) : null, retryAfter: Number(response.headers.get('retry-after') ?? 1) };
}

/** Until the key answers 200 from the cache (`HIT`); a budget 429 on the way means "later". */
export async function warm(origin, path) {
  let last = '';
  for (let tries = 0; tries < 40; tries++) {
    const got = await answer(origin, path);
    if (got.status === 200 && got.cache === 'HIT') return got;
    last = `${got.status} ${got.cache} ${got.text.slice(0, 120)}`;
    const wait = got.status === 429 ? Math.min(got.retryAfter, 5) * 1000 : 200;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  throw new Error(`${path} was never served from the cache; last answer: ${last}`);
}

/**
 * Until `url` answers 200 and `check(response, body)` holds (a budget 429 on the way means "later"): the last answer
 * and its text. Throws with the last answer after some 50 s.
 */
export async function askUntil(url, headers, check) {
  let last = '';
  for (let tries = 0; tries < 60; tries++) {
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (response.ok && check(response, JSON.parse(text))) return { response, text };
    last = `${response.status} ${response.headers.get('x-reelgate-cache')} ${text.slice(0, 120)}`;
    await new Promise((resolve) => setTimeout(resolve, tries < 10 ? 150 : 1000));
  }
  throw new Error(`${url} was never served as wanted; last answer: ${last}`);
}

/** The workerd's CPU time per answer over runs (each with `worker_cpu_s`), in microseconds; summed over the runs
 * because /proc counts in clock ticks of 10 ms. */
export const cpuPerRequest = (runs) => round(runs.reduce((sum, r) => sum + r.worker_cpu_s, 0) * 1e6 /
  runs.reduce((sum, r) => sum + r.requests, 0), 1);

function versus(subject, baseline) {
  return {
    requests_per_second: round(subject.requests_per_second / baseline.requests_per_second, 3),
    mean_latency: round(subject.latency_ms.mean / baseline.latency_ms.mean, 3),
    p50_latency: round(subject.latency_ms.p50 / baseline.latency_ms.p50, 3),
    p99_latency: round(subject.latency_ms.p99 / baseline.latency_ms.p99, 3),
    worker_cpu_per_request: round(cpuPerRequest([subject]) / cpuPerRequest([baseline]), 3),
  };
}

/** Subject against baseline round by round (neighbours in time); the median of each ratio, and every round's. */
export function ratios(subject, baseline) {
  const rounds = subject.map((run, i) => versus(run, baseline[i]));
  return {
    requests_per_second: round(median(rounds.map((v) => v.requests_per_second)), 3),
    mean_latency: round(median(rounds.map((v) => v.mean_latency)), 3),
    p50_latency: round(median(rounds.map((v) => v.p50_latency)), 3),
    p99_latency: round(median(rounds.map((v) => v.p99_latency)), 3),
    // Over all the rounds together (per-round CPU is a few dozen clock ticks).
    worker_cpu_per_request: round(cpuPerRequest(subject) / cpuPerRequest(baseline), 3),
    rounds,
  };
}

/** The rounds of one case summed up: the median over the rounds of each figure, each round kept. */
export function summarize(runs) {
  return {
    requests_per_second: Math.round(median(runs.map((r) => r.requests_per_second))),
    latency_ms: {
      mean: round(median(runs.map((r) => r.latency_ms.mean)), 2),
      p50: round(median(runs.map((r) => r.latency_ms.p50)), 1),
      p99: round(median(runs.map((r) => r.latency_ms.p99)), 1),
    },
    worker_cpu_us_per_request: cpuPerRequest(runs),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    statuses: runs.reduce((mix, r) => {
      for (const [status, count] of Object.entries(r.statuses)) mix[status] = (mix[status] ?? 0) + count;
      return mix;
    }, {}),
    errors: runs.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    rounds: runs.map((r) => ({ requests_per_second: r.requests_per_second, mean_ms: r.latency_ms.mean, p50_ms: r.latency_ms.p50,
      p99_ms: r.latency_ms.p99, worker_cpu_s: r.worker_cpu_s })),
  };
}

/** The CPU time (user and system) of `rootPid` and every process under it, in seconds (`wrangler dev`: its Node process,
 * the dev proxy's workerd and the user worker's workerd). */
export function treeCpuSeconds(rootPid) {
  const procs = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(entry), ppid: Number(fields[1]), s: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const proc of procs) {
      if (!tree.has(proc.pid) && tree.has(proc.ppid)) {
        tree.add(proc.pid);
        grew = true;
      }
    }
  }
  return procs.filter((proc) => tree.has(proc.pid)).reduce((sum, proc) => sum + proc.s, 0);
}
