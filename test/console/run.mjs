#!/usr/bin/env node
// `npm run test:console`: the operator console (issue 26) in Chromium against the real worker and sandbox.
// 1. Finds Chromium (test/support/find-browser.mjs: CHROME_PATH, a system Chromium, or @sparticuz/chromium's).
// 2. Starts the sandbox upstream and the edge worker with `wrangler dev` (test/support/dev-workers.mjs, with the
//    sandbox-only ADMIN_TOKEN) on free ports from 22787/22788, inspectors from 22887: apart from the other browser
//    suites, so they may run at once. Each run has state folders of its own, so the metrics start from nothing.
// 3. Runs test/console/*.test.mjs with `node --test`, one file at a time, handing them the worker's and the sandbox's
//    addresses (REELGATE_TEST_WORKER, REELGATE_TEST_SANDBOX) and the browser (REELGATE_CHROMIUM_PATH); the summary
//    reporter writes .build/summaries/console.json. Stops both workers and exits with the tests' status.
import { fileURLToPath } from 'node:url';
import { runBrowserSuite } from '../support/node-suite.mjs';

await runBrowserSuite({
  suite: 'console',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  workers: {
    workerPort: Number(process.env.REELGATE_CONSOLE_WORKER_PORT ?? 22787),
    sandboxPort: Number(process.env.REELGATE_CONSOLE_SANDBOX_PORT ?? 22788),
    inspectorPort: 22887,
    statePrefix: 'reelgate-console-',
    migrate: true,
  },
});
