#!/usr/bin/env node
// `npm run bench`: reelgate's figures, side by side, in one run on this machine. Everything is local: the sandbox
// upstream, the edge worker and two comparison Workers (a hello-world and a naive pass-through proxy) on workerd via
// `wrangler dev`, loopback traffic from autocannon, and Chromium for the render cost. Section 1 measures on direct
// workerd sockets of its own (each Worker in its own workerd, no dev proxy), with its earlier `wrangler dev` rows
// beside; sections 6 to 8 also measure on direct sockets. No pass/fail thresholds: it prints one table and writes
// test/bench/results.json. Every server it starts is stopped at the end, on failure and on Ctrl-C. Takes a few
// minutes; BENCH_SECONDS (default 6) sets the length of each throughput run.
//
// `npm run bench -- --section cold` (or several: `--section cold,embed`) runs only the sections named, starting only
// the servers they need, and writes .build/bench-results.json instead (test/bench/results.json keeps the last full
// run). Sections: edge (1: the cached paths against a hello-world Worker, on direct sockets and under `wrangler dev`),
// amplification (2: cold, warm, naive proxy), cold (2's cold run alone), catalog (2: a cold catalog of 1,000 media warmed), embed (3), render (4), geo (5), playback (6), signing (7: URL signing's cost per answer, on a direct workerd stack of its own),
// metrics (8: the cached feed with metrics recording on against off, on a direct workerd stack of its own).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWrangler, stopAllAndWait } from './lib/processes.mjs';
import { EDGE_DEV, edgeOverhead } from './sections/edge-overhead.mjs';
import { amplification, naiveAmplification } from './sections/amplification.mjs';
import { catalogWarmUp } from './sections/catalog-warm-up.mjs';
import { chunkLoad, chunkSizes } from './sections/chunk-load.mjs';
import { embedSize } from './sections/embed-size.mjs';
import { renderCost } from './sections/render-cost.mjs';
import { machine } from './sections/machine.mjs';
import { geoDecisions } from './sections/geo-decisions.mjs';
import { playback } from './sections/playback.mjs';
import { urlSigning } from './sections/url-signing.mjs';
import { metricsRecording } from './sections/metrics-recording.mjs';
import { table } from './lib/table.mjs';
import { findBrowser } from '../support/find-browser.mjs';
import { sandboxSecrets } from './lib/secrets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS = join(root, 'test/bench/results.json');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
/** Preferred ports, away from `npm start`'s 8787/8788; the next free ones are taken when these are busy. */
const PREFERRED_PORTS = { worker: 18787, sandbox: 18788, hello: 18789, naive: 18790, passThrough: 18791 };

const log = (message) => console.log(`[bench] ${message}`);

const SECTIONS = ['edge', 'amplification', 'cold', 'catalog', 'embed', 'render', 'geo', 'playback', 'signing', 'metrics'];

/** The sections asked for with `--section a,b` (repeatable); every one (cold as part of amplification) by default. */
function chosenSections(argv) {
  const named = [];
  for (let i = 0; i < argv.length; i++) {
    const match = /^--section(?:=(.*))?$/.exec(argv[i]);
    if (!match) throw new Error(`unknown argument ${argv[i]} (use --section ${SECTIONS.join('|')})`);
    const value = match[1] ?? argv[++i];
    if (!value) throw new Error('--section needs a name');
    named.push(...value.split(','));
  }
  for (const name of named) if (!SECTIONS.includes(name)) throw new Error(`unknown section ${name} (${SECTIONS.join(', ')})`);
  return named.length ? new Set(named) : null;
}

function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false)).once('listening', () => server.close(() => resolve(true)));
    server.listen(port, '127.0.0.1');
  });
}

/** A free HTTP port and a free inspector port per server, preferring the usual ones. */
async function pickPorts() {
  const taken = new Set();
  const next = async (from) => {
    for (let port = from; port < from + 400; port++) {
      if (!taken.has(port) && await portFree(port)) {
        taken.add(port);
        return port;
      }
    }
    throw new Error(`no free port from ${from}`);
  };
  const out = {};
  for (const [name, port] of Object.entries(PREFERRED_PORTS)) out[name] = { port: await next(port), inspector: await next(port + 1000) };
  return out;
}

async function main() {
  const only = chosenSections(process.argv.slice(2));
  const runs = (name) => only === null || only.has(name);
  const started = Date.now();
  const results = { generated_at: new Date().toISOString(), note: "One machine's figures: compare them only with runs on comparable machines (see `machine`)." };
  // The same browser as the component suites: CHROME_PATH, a system Chromium, or the one from @sparticuz/chromium.
  let browser;
  let noBrowser;
  try {
    browser = findBrowser();
  } catch (error) {
    noBrowser = error.message;
  }
  results.machine = machine({ chromium: browser?.path });
  log(`${results.machine.cores} cores, Node ${results.machine.node}, wrangler ${results.machine.wrangler}, workerd ${results.machine.workerd}`);

  log('npm run build (the embed bundle the worker serves and section 3 weighs)');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');

  // Section 1 runs on direct workerd sockets of its own; it needs the `wrangler dev` servers only for the rows of
  // earlier runs (BENCH_EDGE_DEV=0 skips them).
  const edgeUnderDev = runs('edge') && EDGE_DEV;
  const servesHttp = edgeUnderDev || runs('amplification') || runs('cold') || runs('catalog') || runs('geo') || runs('playback');
  // Only the `wrangler dev` servers take these ports (the direct workerd stacks take free ones the system gives).
  const PORTS = servesHttp ? await pickPorts() : null;
  if (PORTS) log(`ports: ${Object.entries(PORTS).map(([name, { port, inspector }]) => `${name} ${port} (inspector ${inspector})`).join(', ')}`);
  const state = mkdtempSync(join(tmpdir(), 'reelgate-bench-'));
  // Also on Ctrl-C, which ends the process without running `finally`.
  const removeState = () => {
    try {
      rmSync(state, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // a server still closing its files; the folder is in the system's temp directory
    }
  };
  process.once('exit', removeState);
  const secrets = sandboxSecrets();
  try {
    const needs = { hello: edgeUnderDev, naive: runs('amplification'), passThrough: runs('playback') };
    if (servesHttp) {
      log('starting the sandbox, the edge worker and the comparison Workers the sections need (wrangler dev)');
      const sandbox = await startWrangler({ name: 'sandbox', config: join(root, 'demo/sandbox/wrangler.toml'), port: PORTS.sandbox.port,
        inspectorPort: PORTS.sandbox.inspector, persistTo: join(state, 'sandbox'), logDir: state, vars: secrets });
      const upstream = sandbox.origin;
      const [worker, hello, naive, passThrough] = await Promise.all([
        startWrangler({ name: 'worker', config: join(root, 'wrangler.toml'), port: PORTS.worker.port, inspectorPort: PORTS.worker.inspector,
          persistTo: join(state, 'worker'), logDir: state,
          // The shipped configuration of wrangler.toml, pointed at the bench's sandbox; DEV_MODE lets the bench stand in
          // for many visitors with x-reelgate-dev-ip (each visitor has its own abuse limit and location).
          vars: { ...secrets, API_BASE_URL: upstream, GEO_API_URL: upstream, DELIVERY_BASE_URL: upstream, DEV_MODE: 'true', ADDRESS_SALT: 'bench-address-salt' } }),
        needs.hello && startWrangler({ name: 'hello-world', config: join(root, 'test/bench/hello-world/wrangler.toml'), port: PORTS.hello.port,
          inspectorPort: PORTS.hello.inspector, persistTo: join(state, 'hello'), logDir: state }),
        needs.naive && startWrangler({ name: 'naive-proxy', config: join(root, 'test/bench/naive-proxy/wrangler.toml'), port: PORTS.naive.port,
          inspectorPort: PORTS.naive.inspector, persistTo: join(state, 'naive'), logDir: state,
          vars: { API_BASE_URL: upstream, API_SECRET: secrets.API_SECRET } }),
        needs.passThrough && startWrangler({ name: 'pass-through', config: join(root, 'test/bench/pass-through/wrangler.toml'),
          port: PORTS.passThrough.port, inspectorPort: PORTS.passThrough.inspector, persistTo: join(state, 'pass-through'), logDir: state,
          vars: { API_BASE_URL: upstream } }),
      ]);
      const servers = { sandbox: upstream, worker: worker.origin, hello: hello && hello.origin, naive: naive && naive.origin, secrets };

      let amplified;
      if (runs('amplification') || runs('cold')) {
        log('section 2: upstream amplification through reelgate (cold caches first, while the worker is new)');
        amplified = await amplification(servers, log, { coldOnly: !runs('amplification') });
      }
      if (edgeUnderDev) {
        // Its direct stack (the sandbox, reelgate, the hello-world Workers) is started and stopped inside, beside the
        // `wrangler dev` servers (idle while the direct rows run), so both stacks locate their geo visitors at once.
        log('section 1: edge overhead (direct workerd sockets, and the rows of earlier runs under wrangler dev)');
        Object.assign(results, await edgeOverhead({ secrets, dev: { sandbox: upstream, worker: worker.origin, hello: hello.origin,
          workerPid: worker.child.pid, helloPid: hello.child.pid } }, { seconds: SECONDS }, log));
      }
      if (amplified) {
        const { keys, ...figures } = amplified;
        results.upstream_amplification = figures;
        if (runs('amplification')) {
          log('section 2: the same load through the naive proxy');
          results.upstream_amplification.naive_proxy = await naiveAmplification(servers, keys, log);
        }
      }
      if (runs('catalog')) {
        // After the naive proxy's run: it spends the upstream's window, which a reset gives back.
        log('section 2: a cold catalog of 1,000 media, each asked for once');
        results.catalog_warm_up = await catalogWarmUp(servers, log);
      }
      if (runs('geo')) {
        log('section 5: geo decisions for a crowd of new visitors');
        results.geo_decisions = await geoDecisions(servers, log);
      }
      if (runs('playback')) {
        log('section 6: geo-bound playback (a large file direct, through a bare pass-through Worker, through reelgate; on direct workerd sockets, then under wrangler dev)');
        results.playback = await playback({ secrets, dev: { sandbox: upstream, worker: worker.origin, passThrough: passThrough.origin,
          workerProcess: worker.child, workerPort: PORTS.worker.port } }, log);
      }
    }
  } finally {
    await stopAllAndWait();
    removeState();
  }
  log('servers stopped');

  if (runs('edge') && !edgeUnderDev) {
    log('section 1: edge overhead (direct workerd sockets only: BENCH_EDGE_DEV=0)');
    Object.assign(results, await edgeOverhead({ secrets, dev: null }, { seconds: SECONDS }, log));
  }
  if (runs('signing')) {
    // Its own stack on direct workerd sockets (the sandbox and two reelgates), started and stopped inside, with the
    // `wrangler dev` servers above already gone.
    log('section 7: URL signing, the cost per answer (signed against unsigned, like with like)');
    results.url_signing = await urlSigning({ secrets, seconds: SECONDS }, log);
  }
  if (runs('metrics')) {
    // Its own direct workerd stack too (the sandbox and two reelgates), after section 7's has stopped.
    log('section 8: metrics recording, the cached feed with recording on against recording off');
    results.metrics_recording = await metricsRecording({ secrets, seconds: SECONDS }, log);
  }

  if (runs('embed')) {
    log('section 3: embed size');
    results.embed_size = await embedSize();
    // The player's chunks beside it: their weight, and their load time in Chromium.
    results.embed_size.chunks = chunkSizes(join(root, 'dist'));
    results.embed_size.chunk_load = browser
      ? await chunkLoad({ dist: join(root, 'dist'), chromium: browser.path })
      : { skipped: noBrowser };
  }
  if (runs('render')) {
    log('section 4: render cost in Chromium');
    results.render_cost = browser
      ? await renderCost({ bundlePath: join(root, 'dist/reelgate.js'), chromium: browser.path })
      : { skipped: noBrowser };
  }

  results.duration_s = Math.round((Date.now() - started) / 1000);
  if (only) results.sections = [...only];
  const out = only ? join(root, '.build/bench-results.json') : RESULTS;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${table(results)}\n`);
  log(`wrote ${out.slice(root.length)} in ${results.duration_s} s`);
}

main().catch(async (error) => {
  console.error(`[bench] failed: ${error.stack ?? error}`);
  await stopAllAndWait();
  process.exit(1);
});

