// Starts the bench's local servers (`wrangler dev` on workerd) and guarantees they stop: each runs in its own process
// group, which is ended on normal exit, on failure and on Ctrl-C. Logs go to files so a broken start can be read.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const WRANGLER_BIN = require.resolve('wrangler/bin/wrangler.js');

const running = new Set();

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** Ends every process group this module started; safe to call twice. */
export function stopAll() {
  for (const child of running) stop(child);
  running.clear();
}

/** Waits for each started group to be gone, escalating to SIGKILL after `graceMs`. */
export async function stopAllAndWait(graceMs = 4000) {
  const children = [...running];
  stopAll();
  await Promise.all(children.map((child) => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
      resolve();
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  })));
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.once('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      stopAll();
      process.exit(130);
    });
  }
}

/**
 * `wrangler dev` for one config on loopback, with its own port, inspector port and persistence folder (so every run
 * starts from empty KV and Durable Object storage). `vars` become `--var` (they override the config's vars and any
 * .dev.vars). Resolves once the server answers HTTP.
 */
export async function startWrangler({ name, config, port, inspectorPort, persistTo, vars = {}, logDir }) {
  hookExit();
  const args = [
    WRANGLER_BIN, 'dev',
    '--config', config,
    '--ip', '127.0.0.1',
    '--port', String(port),
    '--inspector-port', String(inspectorPort),
    '--persist-to', persistTo,
    '--show-interactive-dev-session=false',
    '--log-level', 'warn',
  ];
  for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);
  const logPath = join(logDir, `${name}.log`);
  const log = openSync(logPath, 'w');
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      // No network at run time: use Miniflare's placeholder `request.cf` instead of downloading one.
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      NO_COLOR: '1',
    },
  });
  closeSync(log);
  running.add(child);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(origin, child, 90_000);
  } catch (error) {
    stop(child);
    const tail = readFileSync(logPath, 'utf8').split('\n').slice(-30).join('\n');
    throw new Error(`${name} did not start: ${error.message}\n--- ${logPath} ---\n${tail}`);
  }
  return { name, origin, child, logPath, stop: () => stop(child) };
}

async function waitForHttp(origin, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${origin}/__bench_ready`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
  throw new Error(`no HTTP answer on ${origin} within ${timeoutMs} ms`);
}
