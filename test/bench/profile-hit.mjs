#!/usr/bin/env node
// Where a HIT's time goes, measured the way section 1 measures it: reelgate and the hello-world Worker each
// in a workerd process of its own on a direct socket (test/bench/lib/direct.mjs, no dev proxy in front), the feed
// warmed to a HIT and a few visitors located for /api/geo, then closed-loop load while V8's profiler of the Worker's
// own isolate runs, reached over workerd's inspector (Chrome DevTools protocol: `Profiler.start`, the load,
// `Profiler.stop`).
//
//   node test/bench/profile-hit.mjs [feed|geo|hello|replay] [seconds]
//
// PROFILE_CASES (comma-separated, default all four) narrows the unprofiled runs, PROFILE_ROUNDS (default 1) repeats
// them in rounds (medians reported); PROFILE=0 skips the profiled run.
//
// First unprofiled runs of every case, reporting each one's CPU time per request (its workerd process's user + system
// time from /proc, which unlike req/s does not move much with whatever else the machine does), so one change's effect
// reads in microseconds. Then a profiled run of the named case: the functions with the most samples, and the full
// profile in .build/hit-<case>.cpuprofile with the bundle it ran in .build/hit-worker.js (open the profile in Chrome
// DevTools' Performance panel, or speedscope). The profile counts JavaScript only: the assets router in front, the
// HTTP parsing and writing and the rate-limit binding are workerd's C++ and show as "(program)" or not at all, which is
// what the CPU figures of the unprofiled runs are for.
//
// Unlike section 1, the visitor limit is raised on both sides alike (same call, Miniflare's counter costs the same
// whatever the limit), so a long run needs only a few located visitors. Not part of `npm run bench`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startDirectEdge } from './lib/direct.mjs';
import { load } from './lib/load.mjs';
import { askUntil, cpuSeconds, DEV_IP, median } from './lib/rounds.mjs';
import { sandboxControls } from './lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from './lib/visitors.mjs';
import { sandboxSecrets } from './lib/secrets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const which = process.argv[2] ?? 'feed';
const seconds = Number(process.argv[3] ?? 5);
const CASES = ['hello', 'replay', 'feed', 'geo'];
const measured = (process.env.PROFILE_CASES ?? CASES.join(',')).split(',').filter((name) => CASES.includes(name));
const profiling = process.env.PROFILE !== '0';
const rounds = Number(process.env.PROFILE_ROUNDS ?? 1);
const INSPECTOR_PORT = 19987;
const LOCATED = 40;
const log = (message) => console.log(`[profile] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (!CASES.includes(which)) {
  console.error(`usage: node test/bench/profile-hit.mjs [${CASES.join('|')}] [seconds]`);
  process.exit(2);
}

/** One DevTools session to the isolate of the Worker named `name`. */
async function devtools(name) {
  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl?.endsWith(`/${name}`)) ?? targets.find((t) => t.webSocketDebuggerUrl);
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
  return { busy, idle: profile.samples.length - busy, self: [...self].sort((a, b) => b[1] - a[1]),
    inclusive: [...inclusive].sort((a, b) => b[1] - a[1]) };
}

/** A profile of refusals is not a profile of HITs: say so loudly. */
function warnIfRefused(label, run) {
  const refused = Object.keys(run.statuses).filter((status) => status !== '200');
  if (refused.length > 0) log(`WARNING: ${label}: not every answer was a 200 (${JSON.stringify(run.statuses)})`);
}

async function main() {
  const stack = await startDirectEdge({ secrets: sandboxSecrets(), inspect: which === 'hello' || which === 'replay' ? 'hello' : 'reelgate',
    inspectorPort: INSPECTOR_PORT, visitorLimit: 1_000_000 });
  try {
    const controls = sandboxControls(stack.sandbox.origin);
    await controls.reset({ rate_limit_per_minute: 600 });
    const site = (await controls.catalog()).sites[0];
    const feedPath = `/api/sites/${site.id}/playlists/${site.playlists.manual[0]}`;
    const located = visitorAddresses(LOCATED, 300);
    // As the load generator receives them (it asks for no encoding): the replay stores the feed's answer as sent.
    const until = (url, headers, check) => askUntil(url, { ...headers, 'accept-encoding': 'identity' }, check);
    const locating = measured.includes('geo') || (profiling && which === 'geo');
    log(`warming the feed${locating ? ` and locating ${LOCATED} visitors (a Geo API lookup each, 50 a minute as shipped)` : ''}`);
    if (locating) for (const ip of located) await until(`${stack.worker.origin}/api/geo`, { [DEV_IP]: ip }, (_, body) => body.source === 'geo-api');
    const hit = (response) => response.headers.get('x-reelgate-cache') === 'HIT';
    const { response: feedAnswer, text: feedBody } = await until(`${stack.worker.origin}${feedPath}`, { [DEV_IP]: '2001:db8:ffff::1' }, hit);
    const framing = new Set(['content-length', 'transfer-encoding']);
    await fetch(`${stack.hello.origin}/replay`, { method: 'PUT', body: JSON.stringify({ status: feedAnswer.status,
      headers: [...feedAnswer.headers].filter(([name]) => !framing.has(name)), body: feedBody }) });

    const cases = {
      hello: { server: stack.hello, path: '/', visitors: rotatingVisitor(visitorAddresses(500, 1000)) },
      replay: { server: stack.hello, path: '/replay', visitors: rotatingVisitor(visitorAddresses(500, 1000)) },
      feed: { server: stack.worker, path: feedPath, visitors: rotatingVisitor(visitorAddresses(500, 1000)) },
      geo: { server: stack.worker, path: '/api/geo', visitors: rotatingVisitor(located) },
    };
    const run = (c, durationSeconds) => load({ origin: c.server.origin, path: c.path, nextHeaders: c.visitors, connections: 10, durationSeconds });
    log(`unprofiled: ${rounds} round(s) of ${seconds} s per case after 1 s unrecorded (CPU: that Worker's workerd process, from /proc)`);
    const cpu = Object.fromEntries(measured.map((name) => [name, []]));
    const rates = Object.fromEntries(measured.map((name) => [name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const name of measured) {
        const c = cases[name];
        if (name === 'feed') await until(`${stack.worker.origin}${feedPath}`, { [DEV_IP]: '2001:db8:ffff::1' }, hit);
        await run(c, 1);
        const before = cpuSeconds(c.server.pid);
        const result = await run(c, seconds);
        cpu[name].push(Math.round((cpuSeconds(c.server.pid) - before) * 1e6 / result.requests));
        rates[name].push(result.requests_per_second);
        warnIfRefused(name, result);
      }
    }
    // Against hello-world round by round (neighbours in time share the machine's drift), when it was measured.
    const versusHello = (name) => (measured.includes('hello') && name !== 'hello'
      ? `, ${median(cpu[name].map((us, r) => cpu.hello[r] / us)).toFixed(2)}× hello-world's rate by CPU` : '');
    for (const name of measured) {
      console.log(`  ${name.padEnd(7)} ${String(median(rates[name])).padStart(6)} req/s  ${String(median(cpu[name])).padStart(5)} µs CPU per request` +
        `  (median of ${cpu[name].join(', ')}${versusHello(name)})`);
    }

    if (!profiling) return;
    const c = cases[which];
    if (which === 'feed') await until(`${stack.worker.origin}${feedPath}`, { [DEV_IP]: '2001:db8:ffff::1' }, hit);
    const session = await devtools(c.server === stack.worker ? 'reelgate' : 'hello-world');
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 50 });
    await session.send('Profiler.start');
    const result = await run(c, seconds);
    const { profile } = await session.send('Profiler.stop');
    mkdirSync(join(root, '.build'), { recursive: true });
    await session.send('Debugger.enable');
    await sleep(500);
    const script = session.scripts.find((s) => s.url.endsWith('.js')) ?? session.scripts[0];
    if (script) {
      const { scriptSource } = await session.send('Debugger.getScriptSource', { scriptId: script.scriptId });
      writeFileSync(join(root, '.build/hit-worker.js'), scriptSource);
    }
    session.close();
    const out = join(root, `.build/hit-${which}.cpuprofile`);
    writeFileSync(out, JSON.stringify(profile));
    warnIfRefused(which, result);
    const { busy, idle, self, inclusive } = summarise(profile);
    log(`profiled ${which}: ${result.requests_per_second} req/s, ${result.requests} requests; ${busy} busy samples, ${idle} idle`);
    const share = (count) => `${(100 * count / busy).toFixed(1).padStart(5)} %`;
    console.log('self (share of busy samples)');
    for (const [key, count] of self.slice(0, 35)) console.log(`${share(count)}  ${key}`);
    console.log('inclusive (share of busy samples; async continuations not included)');
    for (const [name, count] of inclusive.slice(0, 45)) console.log(`${share(count)}  ${name}`);
    log(`wrote ${out.slice(root.length)}`);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
