#!/usr/bin/env node
// A CPU profile of the edge worker answering cached requests (issue 13's hot path), taken the way section 1 serves it:
// the sandbox and the worker under `wrangler dev` (shipped wrangler.toml, DEV_MODE on, many simulated visitors), the
// key warmed, then autocannon load while the V8 profiler of the worker's own isolate runs. The profiler is reached
// over the Chrome DevTools protocol on the inspector port `wrangler dev --inspector-port` opens (workerd's inspector,
// not Node's `node:inspector`): `Profiler.start`, the load, `Profiler.stop`.
//
//   node test/bench/profile-hit.mjs [feed|geo|hello] [seconds]
//
// First an unprofiled run, reporting the CPU time each process spent per request (from /proc: the worker's workerd,
// wrangler's dev proxy, the load generator), which unlike req/s does not move with whatever else the machine is
// doing; `hello` does the same for section 1's hello-world Worker, the baseline. Then a profiled run: it prints the
// functions with the most samples and writes the full profile to .build/hit-<case>.cpuprofile (open it in Chrome
// DevTools' Performance panel, or speedscope). Not part of `npm run bench`; it only shows where a HIT's time goes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startWrangler, stopAllAndWait } from './lib/processes.mjs';
import { load } from './lib/load.mjs';
import { sandboxControls } from './lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from './lib/visitors.mjs';
import { sandboxSecrets } from './lib/secrets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const which = process.argv[2] ?? 'feed';
const seconds = Number(process.argv[3] ?? 6);
const log = (message) => console.log(`[profile] ${message}`);

/** One DevTools session to the worker's isolate. */
async function devtools(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let id = 0;
  const waiting = new Map();
  const scripts = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.method === 'Debugger.scriptParsed' && message.params.url) scripts.push(message.params);
    if (message.id && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  });
  return {
    send: (method, params = {}) => new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
      socket.send(JSON.stringify({ id: n, method, params }));
    }),
    scripts,
    close: () => socket.close(),
  };
}

/**
 * Where the samples fell. Counted in samples, not in the time between them: on a busy machine the thread is sometimes
 * descheduled for milliseconds, and that gap would otherwise be charged to whatever ran last.
 */
function summarise(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  const inclusive = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') continue;
    busy++;
    const file = url ? url.split('/').slice(-1)[0] : '';
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + 1);
    // Inclusive counts by function name (async continuations start a new stack, so these are lower bounds).
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at).callFrame.functionName;
      if (!name || seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    }
  }
  const intervals = profile.timeDeltas.filter((dt) => dt > 0).sort((a, b) => a - b);
  const interval = intervals[Math.floor(intervals.length / 2)] / 1000;
  return { busy, interval, idle: profile.samples.length - busy, self: [...self].sort((a, b) => b[1] - a[1]),
    inclusive: [...inclusive].sort((a, b) => b[1] - a[1]) };
}

/** CPU milliseconds (user + system) of `pid` and every process under it, by command name. */
function cpuOfTree(rootPid) {
  const procs = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      procs.push({ pid: Number(entry), name, ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // gone meanwhile
    }
  }
  const inTree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const proc of procs) if (!inTree.has(proc.pid) && inTree.has(proc.ppid)) { inTree.add(proc.pid); grew = true; }
  }
  return new Map(procs.filter((proc) => inTree.has(proc.pid)).map((proc) => [`${proc.name}[${proc.pid}]`, proc.ms]));
}

function selfCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Waits for the abuse limit's next fixed window (the binding counts per visitor per clock minute) so a run's visitors
 * start with their whole allowance. The hello-world Worker has no limit.
 */
async function freshWindow(which) {
  if (which === 'hello') return;
  const wait = 60_000 - (Date.now() % 60_000) + 200;
  log(`waiting ${(wait / 1000).toFixed(1)} s for a fresh abuse-limit window`);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** A profile of refusals is not a profile of HITs: say so loudly. */
function warnIfRefused(run) {
  const refused = Object.entries(run.statuses).filter(([status]) => status !== '200');
  if (refused.length > 0) log(`WARNING: not every answer was a 200 (${JSON.stringify(run.statuses)}); shorten the run`);
}

async function main() {
  const state = mkdtempSync(join(tmpdir(), 'reelgate-profile-'));
  const vars = sandboxSecrets();
  try {
    let worker;
    let path = '/';
    let visitors;
    if (which === 'hello') {
      worker = await startWrangler({ name: 'hello-world', config: join(root, 'test/bench/hello-world/wrangler.toml'), port: 18887,
        inspectorPort: 19887, persistTo: join(state, 'hello'), logDir: state });
    } else {
      // The worker serves dist/ as its assets; wrangler refuses to start without it (a fresh clone has none).
      const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      if (build.status !== 0) throw new Error('npm run build failed');
      const sandbox = await startWrangler({ name: 'sandbox', config: join(root, 'demo/sandbox/wrangler.toml'), port: 18888,
        inspectorPort: 19888, persistTo: join(state, 'sandbox'), logDir: state, vars });
      worker = await startWrangler({ name: 'worker', config: join(root, 'wrangler.toml'), port: 18887, inspectorPort: 19887,
        persistTo: join(state, 'worker'), logDir: state,
        vars: { ...vars, API_BASE_URL: sandbox.origin, GEO_API_URL: sandbox.origin, DELIVERY_BASE_URL: sandbox.origin, DEV_MODE: 'true', ADDRESS_SALT: 'bench-address-salt' } });
      const controls = sandboxControls(sandbox.origin);
      await controls.reset({ rate_limit_per_minute: 600 });
      const catalog = await controls.catalog();
      const site = catalog.sites[0];
      path = which === 'geo' ? '/api/geo' : `/api/sites/${site.id}/playlists/${site.playlists.manual[0]}`;
      // As section 1: 180 located visitors for /api/geo, 300 for the feed (no lookup needed). Each may make 120 requests
      // a minute (the abuse limit); every run starts in a fresh minute (see `freshWindow`) so it measures answers, not
      // the limit's 429s.
      const addresses = which === 'geo' ? visitorAddresses(180, 300) : visitorAddresses(300, 0);
      visitors = rotatingVisitor(addresses);
      for (const ip of which === 'geo' ? addresses : [addresses[0]]) {
        for (let tries = 0; tries < 40; tries++) {
          const response = await fetch(`${worker.origin}${path}`, { headers: { 'x-reelgate-dev-ip': ip } });
          const body = await response.json();
          if (response.ok && (which === 'geo' ? body.source === 'geo-api' : response.headers.get('x-reelgate-cache') === 'HIT')) break;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      }
    }
    log(`warmed ${path}`);
    await freshWindow(which);
    await load({ origin: worker.origin, path, nextHeaders: visitors, connections: 10, durationSeconds: 1 });
    // CPU per request, unprofiled.
    const cpuBefore = cpuOfTree(worker.child.pid);
    const selfBefore = selfCpuMs();
    const plain = await load({ origin: worker.origin, path, nextHeaders: visitors, connections: 10, durationSeconds: seconds });
    const selfAfter = selfCpuMs();
    const cpuAfter = cpuOfTree(worker.child.pid);
    log(`unprofiled: ${plain.requests_per_second} req/s, p50 ${plain.latency_ms.p50} ms, ${plain.requests} requests, statuses ${JSON.stringify(plain.statuses)}`);
    let total = 0;
    for (const [name, ms] of cpuAfter) {
      const used = ms - (cpuBefore.get(name) ?? 0);
      total += used;
      if (used > 0) console.log(`  ${name.padEnd(28)} ${(used * 1000 / plain.requests).toFixed(0).padStart(6)} µs CPU per request`);
    }
    console.log(`  ${'load generator (this Node)'.padEnd(28)} ${((selfAfter - selfBefore) * 1000 / plain.requests).toFixed(0).padStart(6)} µs CPU per request`);
    console.log(`  ${'server processes together'.padEnd(28)} ${(total * 1000 / plain.requests).toFixed(0).padStart(6)} µs CPU per request`);
    warnIfRefused(plain);
    const session = await devtools(19887);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 100 });
    await freshWindow(which);
    await session.send('Profiler.start');
    const result = await load({ origin: worker.origin, path, nextHeaders: visitors, connections: 10, durationSeconds: seconds });
    const { profile } = await session.send('Profiler.stop');
    mkdirSync(join(root, '.build'), { recursive: true });
    // The bundle wrangler dev built (its own middleware included), to read the profile's line numbers against.
    await session.send('Debugger.enable');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const script = session.scripts.find((s) => s.url.endsWith('index.js')) ?? session.scripts[0];
    if (script) {
      const { scriptSource } = await session.send('Debugger.getScriptSource', { scriptId: script.scriptId });
      writeFileSync(join(root, '.build/hit-worker.js'), scriptSource);
    }
    session.close();
    const out = join(root, `.build/hit-${which}.cpuprofile`);
    writeFileSync(out, JSON.stringify(profile));
    warnIfRefused(result);
    const { busy, idle, interval, self, inclusive } = summarise(profile);
    const perRequest = (count) => (count * interval * 1000 / result.requests).toFixed(0);
    log(`${result.requests_per_second} req/s, p50 ${result.latency_ms.p50} ms, ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}`);
    log(`${busy} busy samples, ${idle} idle, median interval ${interval.toFixed(3)} ms: about ${perRequest(busy)} µs of the isolate's thread per request`);
    const share = (count) => `${(100 * count / busy).toFixed(1).padStart(5)} %`;
    console.log('self (share of busy samples)');
    for (const [key, count] of self.slice(0, 35)) console.log(`${share(count)}  ${key}`);
    console.log('inclusive (share of busy samples; async continuations not included)');
    for (const [name, count] of inclusive.slice(0, 45)) console.log(`${share(count)}  ${name}`);
    log(`wrote ${out.slice(root.length)}`);
  } finally {
    await stopAllAndWait();
    rmSync(state, { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAllAndWait();
  process.exit(1);
});
