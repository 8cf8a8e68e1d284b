#!/usr/bin/env node
// `npm run test:components`: the component suites in Chromium through web-test-runner.
// 1. Finds the browser through test/support/find-browser.mjs: CHROME_PATH, a system Chromium/Chrome, or the Chromium
//    that `npm ci` brings with @sparticuz/chromium.
// 2. Starts the sandbox upstream and the edge worker with `wrangler dev` on free ports from 18787/18788 (DEV_MODE on,
//    sandbox-only secrets from .dev.vars.example, each with its own state folder in a throwaway directory), waits until
//    both answer, and hands the worker's address to the integration suite (REELGATE_TEST_WORKER).
//    REELGATE_SKIP_INTEGRATION=1 skips that part.
// 3. Runs web-test-runner, stops both workers, and exits with its status. The summary reporter writes
//    .build/wtr-summary.json ({passed, failed}) and prints "components: N passed, N failed".
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser } from './support/find-browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => join(root, path);

let browser;
try {
  browser = findBrowser();
} catch (error) {
  console.error(`test:components: ${error.message}`);
  process.exit(1);
}
console.log(`test:components: Chromium ${browser.path} (${browser.source})`);

function devVars() {
  const out = {};
  for (const line of readFileSync(at('.dev.vars.example'), 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !line.trimStart().startsWith('#')) out[match[1]] = match[2];
  }
  return out;
}

const children = [];
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

function startWrangler(name, args) {
  const child = spawn(at('node_modules/.bin/wrangler'), args, {
    cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  children.push(child);
  let log = '';
  child.stdout.on('data', (chunk) => { log += chunk; });
  child.stderr.on('data', (chunk) => { log += chunk; });
  child.on('exit', (code) => {
    if (!stopping) console.error(`test:components: ${name} exited early (code ${code}):\n${log.slice(-2000)}`);
  });
  return { child, log: () => log };
}

/** True when nothing listens on the port (others may run their own wrangler dev on the suggested ones). */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first free port from `start` on, skipping ones already handed out. */
async function freePort(start, taken) {
  for (let port = start; port < start + 200; port++) {
    if (!taken.has(port) && (await portFree(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port from ${start}`);
}

/** Resolves once wrangler says it is ready, so a server someone else runs on a port can never be mistaken for ours. */
async function ready(handle, deadline) {
  while (Date.now() < deadline) {
    if (handle.child.exitCode !== null) return false;
    if (handle.log().includes('Ready on')) return true;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return false;
}

async function answers(url, deadline) {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
  return false;
}

let stopping = false;
async function stopAll() {
  stopping = true;
  await Promise.all(children.map((child) => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    try { process.kill(-child.pid, 'SIGTERM'); } catch { resolve(); }
    setTimeout(() => {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      resolve();
    }, 5000).unref();
  })));
}

let workerUrl = null;
let state = null;
if (process.env.REELGATE_SKIP_INTEGRATION !== '1') {
  const vars = devVars();
  const taken = new Set();
  const workerPort = await freePort(Number(process.env.REELGATE_TEST_WORKER_PORT ?? 18787), taken);
  const sandboxPort = await freePort(Number(process.env.REELGATE_TEST_SANDBOX_PORT ?? 18788), taken);
  const workerInspector = await freePort(workerPort + 1100, taken);
  const sandboxInspector = await freePort(sandboxPort + 1100, taken);
  // One throwaway folder per run, and a state folder of its own for each workerd: two of them opening the same SQLite
  // files at once fail with SQLITE_BUSY (issue 9, item 8).
  state = mkdtempSync(join(tmpdir(), 'reelgate-wtr-'));
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = startWrangler('sandbox', ['dev', '--config', 'demo/sandbox/wrangler.toml', '--port', String(sandboxPort),
    '--ip', '127.0.0.1', '--inspector-port', String(sandboxInspector), '--persist-to', join(state, 'sandbox'),
    '--var', `API_SECRET:${vars.API_SECRET}`, '--var', `GEO_API_KEY:${vars.GEO_API_KEY}`]);
  const worker = startWrangler('worker', ['dev', '--config', 'wrangler.toml', '--port', String(workerPort),
    '--ip', '127.0.0.1', '--inspector-port', String(workerInspector), '--persist-to', join(state, 'worker'),
    '--var', `API_BASE_URL:${sandboxUrl}`, '--var', `GEO_API_URL:${sandboxUrl}`, '--var', `DELIVERY_BASE_URL:${sandboxUrl}`, '--var', 'DEV_MODE:true',
    '--var', `API_SECRET:${vars.API_SECRET}`, '--var', `GEO_API_KEY:${vars.GEO_API_KEY}`]);
  const deadline = Date.now() + 90_000;
  const up = (await ready(sandbox, deadline)) && (await ready(worker, deadline)) &&
    (await answers(`${sandboxUrl}/`, deadline)) && (await answers(`http://127.0.0.1:${workerPort}/api/geo`, deadline));
  if (!up) {
    console.error('test:components: the worker and sandbox did not start within 90 s:\n' +
      `${sandbox.log().slice(-1500)}\n${worker.log().slice(-1500)}`);
    await stopAll();
    if (state) rmSync(state, { recursive: true, force: true });
    process.exit(1);
  }
  workerUrl = `http://127.0.0.1:${workerPort}`;
  console.log(`test:components: worker ${workerUrl} and sandbox ${sandboxUrl} are up`);
}

const wtr = spawn(process.execPath, [at('node_modules/@web/test-runner/dist/bin.js'), '--config',
  at('web-test-runner.config.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...env, CHROME_PATH: browser.path, ...(workerUrl ? { REELGATE_TEST_WORKER: workerUrl } : {}) },
});
const code = await new Promise((resolve) => wtr.on('exit', (c) => resolve(c ?? 1)));
await stopAll();
if (state) rmSync(state, { recursive: true, force: true });
process.exit(code);
