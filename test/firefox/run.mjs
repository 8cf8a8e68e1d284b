#!/usr/bin/env node
// `npm run test:firefox`: the player in Firefox ESR (issue 23), driven by Puppeteer over WebDriver BiDi.
// 1. Finds Firefox through test/support/find-firefox.mjs: FIREFOX_PATH, /usr/bin/firefox-esr, /usr/bin/firefox, or
//    firefox-esr/firefox on PATH.
//    - None found: prints that the suite was SKIPPED and how to install Firefox, writes a summary that says so
//      (.build/summaries/firefox.json, {status: 'skipped'}, which .ci/summarize.mjs prints) and exits 0. Unless
//      REELGATE_FIREFOX_REQUIRED=1 (.ci/run sets it, having installed firefox-esr): then no Firefox is a failure.
//    - FIREFOX_PATH names no file: a failure, never a skip (a typo must not quietly test nothing).
//    - REELGATE_FIREFOX=none acts as a machine without Firefox, to see the skip where one is installed.
// 2. Starts the sandbox upstream and the edge worker with `wrangler dev` (test/support/dev-workers.mjs) on free ports
//    from 19787/19788, inspectors from 21787: apart from the component suites' (18787/18788), so both can run at once.
// 3. Runs test/firefox/*.test.mjs with `node --test`, one file at a time (each launches its own Firefox), handing them
//    the worker's address (REELGATE_TEST_WORKER) and the Firefox (REELGATE_FIREFOX_PATH); the summary reporter writes
//    .build/summaries/firefox.json. Stops both workers and exits with the tests' status.
import { fileURLToPath } from 'node:url';
import { startDevWorkers } from '../support/dev-workers.mjs';
import { INSTALL_HINT, findFirefox } from '../support/find-firefox.mjs';
import { failSuite, runNodeTests, writeSummary } from '../support/node-suite.mjs';

const SUITE = 'firefox';
const here = fileURLToPath(new URL('.', import.meta.url));

const summary = (fields) => writeSummary(SUITE, fields);
const fail = (reason) => failSuite(SUITE, reason);

let firefox;
try {
  firefox = findFirefox();
} catch (error) {
  fail(error.message);
}
if (!firefox) {
  const why = process.env.REELGATE_FIREFOX === 'none' ? 'no Firefox (REELGATE_FIREFOX=none)' : 'no Firefox found';
  if (process.env.REELGATE_FIREFOX_REQUIRED === '1') {
    fail(`${why}, and this run requires the Firefox suite (REELGATE_FIREFOX_REQUIRED=1). Install it with: ${INSTALL_HINT}`);
  }
  const reason = `${why}. Install it with: ${INSTALL_HINT}`;
  console.log(`test:firefox: SKIPPED - ${reason}`);
  summary({ status: 'skipped', reason });
  process.exit(0);
}
console.log(`test:firefox: Firefox ${firefox.path} (${firefox.source})`);

let workers;
try {
  workers = await startDevWorkers({
    label: 'test:firefox',
    workerPort: Number(process.env.REELGATE_FIREFOX_WORKER_PORT ?? 19787),
    sandboxPort: Number(process.env.REELGATE_FIREFOX_SANDBOX_PORT ?? 19788),
    inspectorPort: 21787,
    statePrefix: 'reelgate-firefox-',
  });
} catch (error) {
  fail(error.message);
}
console.log(`test:firefox: worker ${workers.workerUrl} and sandbox ${workers.sandboxUrl} are up`);

await runNodeTests({
  suite: SUITE, dir: here, stop: () => workers.stop(),
  env: { REELGATE_TEST_WORKER: workers.workerUrl, REELGATE_FIREFOX_PATH: firefox.path },
});
