// The sandbox upstream (demo/sandbox/) and the edge worker under `wrangler dev`, for suites that drive a real browser
// against them: the component suites (test/run-browser-tests.mjs) and the Firefox suite (test/firefox/run.mjs).
//
// Both listen on 127.0.0.1, on the first free ports from the ones asked for (others may run their own `wrangler dev`
// on the usual ones), each with its own inspector port and its own state folder in one throwaway directory: two
// workerd processes opening the same SQLite files at once fail with SQLITE_BUSY (issue 9, item 8). The worker runs with
// DEV_MODE on and the sandbox-only secrets of .dev.vars.example (the admin token included, for the console suite), and talks to the sandbox for the Management API, the
// Geo API and delivery. A suite is handed the addresses only once wrangler has said "Ready on" (so a server someone
// else runs on a port can never be mistaken for ours) and both answer HTTP.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const at = (path) => join(root, path);

/** The variables of .dev.vars.example (sandbox-only values). */
export function devVars() {
  const out = {};
  for (const line of readFileSync(at('.dev.vars.example'), 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !line.trimStart().startsWith('#')) out[match[1]] = match[2];
  }
  return out;
}

/** True when nothing listens on the port. */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first free port from `start` on, skipping ones already handed out. */
export async function freePort(start, taken = new Set()) {
  for (let port = start; port < start + 200; port++) {
    if (!taken.has(port) && (await portFree(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port from ${start}`);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts both and resolves `{ workerUrl, sandboxUrl, stop }` once they answer; `stop()` ends both process groups and
 * removes the state folder. Rejects (after stopping whatever started) when they do not answer within `timeoutMs`.
 *
 * `label` prefixes what is printed; `workerPort`/`sandboxPort` are where the search for free ports starts, and the
 * inspector ports are searched from `inspectorPort` (default: worker port + 1100) on. `migrate` applies the gateway's
 * D1 migrations to the worker's state first. `visitorLimit` replaces the shipped per-visitor limit (wrangler.toml's
 * VISITOR_LIMIT, 120 a minute) for a run whose every request comes from one address, the test server's: a copy of
 * wrangler.toml with that one number changed, beside it (so its paths and .dev.vars hold), removed by `stop()`.
 */
export async function startDevWorkers({ label, workerPort, sandboxPort, inspectorPort = workerPort + 1100,
  statePrefix = 'reelgate-dev-', timeoutMs = 90_000, migrate = false, visitorLimit = null }) {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
  const children = [];
  let stopping = false;

  function startWrangler(name, args) {
    const child = spawn(at('node_modules/.bin/wrangler'), args, {
      cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    children.push(child);
    let log = '';
    child.stdout.on('data', (chunk) => { log += chunk; });
    child.stderr.on('data', (chunk) => { log += chunk; });
    child.on('exit', (code) => {
      if (!stopping) console.error(`${label}: ${name} exited early (code ${code}):\n${log.slice(-2000)}`);
    });
    return { child, log: () => log };
  }

  async function ready(handle, deadline) {
    while (Date.now() < deadline) {
      if (handle.child.exitCode !== null) return false;
      if (handle.log().includes('Ready on')) return true;
      await pause(300);
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
        await pause(300);
      }
    }
    return false;
  }

  let state = null;
  async function stop() {
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
    if (state) rmSync(state, { recursive: true, force: true });
    state = null;
    if (workerConfig !== 'wrangler.toml') rmSync(at(workerConfig), { force: true });
  }

  let workerConfig = 'wrangler.toml';
  if (visitorLimit !== null) {
    const shipped = readFileSync(at('wrangler.toml'), 'utf8');
    const limited = shipped.replace(/(name = "VISITOR_LIMIT"\n(?:.*\n)*?simple = \{ limit = )\d+/, `$1${visitorLimit}`);
    if (limited === shipped) throw new Error('dev-workers: wrangler.toml has no VISITOR_LIMIT `simple = { limit = … }` to replace');
    workerConfig = `.wrangler-test-${process.pid}.toml`;
    writeFileSync(at(workerConfig), limited);
  }

  const vars = devVars();
  const taken = new Set();
  const ports = {
    worker: await freePort(workerPort, taken),
    sandbox: await freePort(sandboxPort, taken),
  };
  const workerInspector = await freePort(inspectorPort, taken);
  const sandboxInspector = await freePort(workerInspector + 1, taken);
  state = mkdtempSync(join(tmpdir(), statePrefix));
  const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
  const workerUrl = `http://127.0.0.1:${ports.worker}`;
  const sandbox = startWrangler('sandbox', ['dev', '--config', 'demo/sandbox/wrangler.toml', '--port', String(ports.sandbox),
    '--ip', '127.0.0.1', '--inspector-port', String(sandboxInspector), '--persist-to', join(state, 'sandbox'),
    '--var', `API_SECRET:${vars.API_SECRET}`, '--var', `GEO_API_KEY:${vars.GEO_API_KEY}`,
    '--var', `SIGNED_SITE_SECRET:${vars.SIGNED_SITE_SECRET}`]);
  if (migrate) {
    // The gateway's schema, as `npm start` applies it (demo/start.mjs): suites that use keys or the console need it.
    const applied = spawnSync(at('node_modules/.bin/wrangler'), ['d1', 'migrations', 'apply', 'GATEWAY_DB', '--local',
      '--persist-to', join(state, 'worker')], { cwd: root, env: { ...env, CI: 'true' }, encoding: 'utf8' });
    if (applied.status !== 0) {
      await stop();
      throw new Error(`applying the gateway database migrations failed:\n${(applied.stdout + applied.stderr).slice(-1500)}`);
    }
  }
  const worker = startWrangler('worker', ['dev', '--config', workerConfig, '--port', String(ports.worker),
    '--ip', '127.0.0.1', '--inspector-port', String(workerInspector), '--persist-to', join(state, 'worker'),
    '--var', `API_BASE_URL:${sandboxUrl}`, '--var', `GEO_API_URL:${sandboxUrl}`, '--var', `DELIVERY_BASE_URL:${sandboxUrl}`,
    '--var', 'DEV_MODE:true', '--var', `API_SECRET:${vars.API_SECRET}`, '--var', `GEO_API_KEY:${vars.GEO_API_KEY}`,
    '--var', `SIGNED_SITE_SECRET:${vars.SIGNED_SITE_SECRET}`, '--var', `ADMIN_TOKEN:${vars.ADMIN_TOKEN}`,
    '--var', `RENDER_TOKEN:${vars.RENDER_TOKEN}`]);
  const deadline = Date.now() + timeoutMs;
  const up = (await ready(sandbox, deadline)) && (await ready(worker, deadline)) &&
    (await answers(`${sandboxUrl}/`, deadline)) && (await answers(`${workerUrl}/api/geo`, deadline));
  if (!up) {
    const logs = `${sandbox.log().slice(-1500)}\n${worker.log().slice(-1500)}`;
    await stop();
    throw new Error(`the worker and sandbox did not start within ${Math.round(timeoutMs / 1000)} s:\n${logs}`);
  }
  return { workerUrl, sandboxUrl, stop };
}
