#!/usr/bin/env node
// `npm run test:components`: the component suites in Chromium through web-test-runner.
// 1. Finds the browser through test/support/find-browser.mjs: CHROME_PATH, a system Chromium/Chrome, or the Chromium
//    that `npm ci` brings with @sparticuz/chromium.
// 2. Starts the sandbox upstream and the edge worker with `wrangler dev` (test/support/dev-workers.mjs) on free ports
//    from 18787/18788 (DEV_MODE on, sandbox-only secrets from .dev.vars.example, each with its own state folder in a
//    throwaway directory), waits until both answer, and hands the worker's address to the integration suite
//    (REELGATE_TEST_WORKER; the sandbox's in REELGATE_TEST_SANDBOX, for its catalog).
//    REELGATE_SKIP_INTEGRATION=1 skips that part.
// 3. Runs web-test-runner, stops both workers, and exits with its status. The summary reporter writes
//    .build/wtr-summary.json ({passed, failed}) and prints "components: N passed, N failed".
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevWorkers } from './support/dev-workers.mjs';
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

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
let workers = null;
if (process.env.REELGATE_SKIP_INTEGRATION !== '1') {
  try {
    workers = await startDevWorkers({
      label: 'test:components',
      workerPort: Number(process.env.REELGATE_TEST_WORKER_PORT ?? 18787),
      sandboxPort: Number(process.env.REELGATE_TEST_SANDBOX_PORT ?? 18788),
      statePrefix: 'reelgate-wtr-',
      // Every suite's page reaches the worker through the test server, so the whole run is one visitor to the
      // per-visitor abuse limit: under the shipped 120 a minute, a fast machine trips it between files. The limit
      // itself is proven by the worker and storm suites.
      visitorLimit: 100_000,
    });
  } catch (error) {
    console.error(`test:components: ${error.message}`);
    process.exit(1);
  }
  console.log(`test:components: worker ${workers.workerUrl} and sandbox ${workers.sandboxUrl} are up`);
}
const workerUrl = workers?.workerUrl ?? null;
const sandboxUrl = workers?.sandboxUrl ?? null;

const wtr = spawn(process.execPath, [at('node_modules/@web/test-runner/dist/bin.js'), '--config',
  at('web-test-runner.config.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...env, CHROME_PATH: browser.path, ...(workerUrl ? { REELGATE_TEST_WORKER: workerUrl, REELGATE_TEST_SANDBOX: sandboxUrl } : {}) },
});
const code = await new Promise((resolve) => wtr.on('exit', (c) => resolve(c ?? 1)));
await workers?.stop();
process.exit(code);
