// What the suites that drive a browser from Node share (test/console, test/demo, test/ssr, test/firefox: each a run.mjs that
// starts what its tests need, then this): their summary for .ci/summarize.mjs when no test could run, and running a
// folder's *.test.mjs with `node --test`, one file at a time, the summary reporter writing .build/summaries/<suite>.json.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevWorkers } from './dev-workers.mjs';
import { findBrowser } from './find-browser.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The summary .ci/summarize.mjs reads when no test ran: skipped (`status`), or one failure with its reason. */
export function writeSummary(suite, fields) {
  const dir = join(root, '.build', 'summaries');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${suite}.json`), JSON.stringify({ suite, passed: 0, failed: 0, skipped: 0, ...fields }));
}

/** The suite could not run: says why, counts one failure, exits 1. */
export function failSuite(suite, reason) {
  console.error(`test:${suite}: FAILED - ${reason}`);
  writeSummary(suite, { failed: 1, status: 'failed', reason });
  process.exit(1);
}

/** The Chromium the suite drives (find-browser.mjs), named on the console; none found fails the suite, saying why. */
export function chromiumOrFail(suite) {
  let browser;
  try {
    browser = findBrowser();
  } catch (error) {
    failSuite(suite, error.message);
  }
  console.log(`test:${suite}: Chromium ${browser.path} (${browser.source})`);
  return browser;
}

/**
 * Runs `dir`'s *.test.mjs with `node --test` (one file at a time) and exits with its status, after `stop()` (the
 * servers the suite started). Ctrl-C or SIGTERM stops the tests and the servers too.
 */
export async function runNodeTests({ suite, dir, env = {}, stop = async () => undefined }) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.test.mjs')).sort().map((name) => join(dir, name));
  let tests;
  const stopOn = (signal) => process.once(signal, async () => {
    if (tests && tests.exitCode === null) tests.kill(signal);
    await stop();
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
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', REELGATE_SUITE: suite, ...env },
  });
  const code = await new Promise((resolve) => tests.on('exit', (c) => resolve(c ?? 1)));
  await stop();
  process.exit(code);
}

/**
 * A browser suite against the real worker and sandbox: finds Chromium, starts both under `wrangler dev`
 * (dev-workers.mjs, with `workers`' ports and options), runs `dir`'s test files with their addresses
 * (REELGATE_TEST_WORKER, REELGATE_TEST_SANDBOX) and the browser (REELGATE_CHROMIUM_PATH), then stops them.
 */
export async function runBrowserSuite({ suite, dir, workers: options }) {
  const browser = chromiumOrFail(suite);
  let workers;
  try {
    workers = await startDevWorkers({ label: `test:${suite}`, ...options });
  } catch (error) {
    failSuite(suite, error.message);
  }
  console.log(`test:${suite}: worker ${workers.workerUrl} and sandbox ${workers.sandboxUrl} are up`);
  await runNodeTests({
    suite, dir, stop: () => workers.stop(),
    env: { REELGATE_TEST_WORKER: workers.workerUrl, REELGATE_TEST_SANDBOX: workers.sandboxUrl, REELGATE_CHROMIUM_PATH: browser.path },
  });
}
