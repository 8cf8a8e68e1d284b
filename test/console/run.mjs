#!/usr/bin/env node
// `npm run test:console`: the operator console (issue 26) in Chromium against the real worker and sandbox.
// 1. Finds Chromium (test/support/find-browser.mjs: CHROME_PATH, a system Chromium, or @sparticuz/chromium's).
// 2. Starts the sandbox upstream and the edge worker with `wrangler dev` (test/support/dev-workers.mjs, with the
//    sandbox-only ADMIN_TOKEN) on free ports from 22787/22788, inspectors from 22887: apart from the other browser
//    suites, so they may run at once. Each run has state folders of its own, so the metrics start from nothing.
// 3. Runs test/console/*.test.mjs with `node --test`, one file at a time, handing them the worker's and the sandbox's
//    addresses (REELGATE_TEST_WORKER, REELGATE_TEST_SANDBOX) and the browser (REELGATE_CHROMIUM_PATH); the summary
//    reporter writes .build/summaries/console.json. Stops both workers and exits with the tests' status.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevWorkers } from '../support/dev-workers.mjs';
import { findBrowser } from '../support/find-browser.mjs';

const SUITE = 'console';
const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));

function fail(reason) {
  console.error(`test:console: FAILED - ${reason}`);
  const dir = join(root, '.build', 'summaries');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${SUITE}.json`), JSON.stringify({ suite: SUITE, passed: 0, failed: 1, skipped: 0, status: 'failed', reason }));
  process.exit(1);
}

let browser;
try {
  browser = findBrowser();
} catch (error) {
  fail(error.message);
}
console.log(`test:console: Chromium ${browser.path} (${browser.source})`);

const files = readdirSync(here).filter((name) => name.endsWith('.test.mjs')).sort().map((name) => join(here, name));

let workers;
try {
  workers = await startDevWorkers({
    label: 'test:console',
    workerPort: Number(process.env.REELGATE_CONSOLE_WORKER_PORT ?? 22787),
    sandboxPort: Number(process.env.REELGATE_CONSOLE_SANDBOX_PORT ?? 22788),
    inspectorPort: 22887,
    statePrefix: 'reelgate-console-',
    migrate: true,
  });
} catch (error) {
  fail(error.message);
}
console.log(`test:console: worker ${workers.workerUrl} and sandbox ${workers.sandboxUrl} are up`);

let tests;
const stopOn = (signal) => process.once(signal, async () => {
  if (tests && tests.exitCode === null) tests.kill(signal);
  await workers.stop();
  process.exit(1);
});
stopOn('SIGINT');
stopOn('SIGTERM');

tests = spawn(process.execPath, ['--test', '--test-concurrency=1',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=./test/support/node-summary-reporter.mjs', '--test-reporter-destination=stdout',
  ...files], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env, WRANGLER_SEND_METRICS: 'false', REELGATE_SUITE: SUITE,
    REELGATE_TEST_WORKER: workers.workerUrl, REELGATE_TEST_SANDBOX: workers.sandboxUrl, REELGATE_CHROMIUM_PATH: browser.path,
  },
});
const code = await new Promise((resolve) => tests.on('exit', (c) => resolve(c ?? 1)));
await workers.stop();
process.exit(code);
