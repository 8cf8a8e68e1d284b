// `npm start` itself (demo/start.mjs), for the suites that must meet the dev stack exactly as a developer runs it:
// the fronts on the public ports, `wrangler dev` behind them, the secrets of .dev.vars. Unlike
// stack.mjs (workerd through Miniflare, no dev server in between), nothing here is set up by the test but the ports,
// where the local state goes (a throwaway folder: a developer's own `npm start` may be running beside) and, once
// `npm run build` has written dist/, skipping the build (REELGATE_START_SKIP_BUILD=1).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/dev-workers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A free port whose inspector port (+1000, as start.mjs picks it) is free too. */
async function portPair(from, taken) {
  for (let start = from; ; start++) {
    const port = await freePort(start, taken);
    if (port + 1000 > 65535) throw new Error(`no free port pair from ${from}`);
    if ((await freePort(port + 1000, taken)) === port + 1000) return port;
    start = port;
  }
}

/** The variables of .dev.vars as start.mjs leaves it (it creates or completes it from .dev.vars.example). */
function devVars() {
  const out = {};
  for (const line of readFileSync(join(root, '.dev.vars'), 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !line.trimStart().startsWith('#')) out[match[1]] = match[2].replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  return out;
}

/**
 * Runs `node demo/start.mjs` on free ports and resolves once it prints "Ctrl-C stops both." to
 * `{ workerPort, sandboxPort, workerUrl, sandboxUrl, vars, log(), stop() }`. `stop()` sends SIGINT, as Ctrl-C does, and
 * resolves to the exit code once start.mjs has ended (it stops both `wrangler dev` itself).
 */
export async function startNpmStart({ label = 'npm start', workerFrom = 27787, sandboxFrom = 27788, timeoutMs = 150_000 } = {}) {
  const taken = new Set();
  const workerPort = await portPair(workerFrom, taken);
  const sandboxPort = await portPair(sandboxFrom, taken);
  const state = mkdtempSync(join(tmpdir(), 'reelgate-npm-start-'));
  const env = {
    ...process.env, PORT: String(workerPort), SANDBOX_PORT: String(sandboxPort), REELGATE_START_STATE: state,
    ...(existsSync(join(root, 'dist/index.html')) ? { REELGATE_START_SKIP_BUILD: '1' } : {}),
  };
  const child = spawn(process.execPath, ['demo/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (chunk) => { log += chunk; });
  child.stderr.on('data', (chunk) => { log += chunk; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

  let stopped = false;
  async function stop() {
    if (!stopped) {
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      rmSync(state, { recursive: true, force: true });
    }
    return exited;
  }

  const up = await new Promise((resolve) => {
    const deadline = setTimeout(() => resolve(false), timeoutMs);
    const check = setInterval(() => {
      if (log.includes('[start] Ctrl-C stops both.')) {
        clearInterval(check);
        clearTimeout(deadline);
        resolve(true);
      }
    }, 200);
    void exited.then(() => {
      clearInterval(check);
      clearTimeout(deadline);
      resolve(false);
    });
  });
  if (!up) {
    await stop();
    throw new Error(`${label}: npm start did not come up within ${Math.round(timeoutMs / 1000)} s:\n${log.slice(-3000)}`);
  }
  return {
    workerPort, sandboxPort,
    workerUrl: `http://127.0.0.1:${workerPort}`, sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    vars: devVars(), log: () => log, stop,
  };
}
