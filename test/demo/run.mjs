#!/usr/bin/env node
// `npm run test:demo`: the publisher demo page in Chromium, against the real worker and sandbox, which this starts with
// `wrangler dev` (test/support/dev-workers.mjs, from 24787/24788) and stops after. The tests are node:test files in
// this folder (languages.test.mjs); the summary goes to .build/summaries/demo.json.
import { fileURLToPath } from 'node:url';
import { startDevWorkers } from '../support/dev-workers.mjs';
import { chromiumOrFail, failSuite, runNodeTests } from '../support/node-suite.mjs';

const SUITE = 'demo';
const here = fileURLToPath(new URL('.', import.meta.url));
const browser = chromiumOrFail(SUITE);

let workers;
try {
  workers = await startDevWorkers({
    label: 'test:demo',
    workerPort: Number(process.env.REELGATE_DEMO_WORKER_PORT ?? 24787),
    sandboxPort: Number(process.env.REELGATE_DEMO_SANDBOX_PORT ?? 24788),
    inspectorPort: 24887,
    statePrefix: 'reelgate-demo-',
  });
} catch (error) {
  failSuite(SUITE, error.message);
}
console.log(`test:demo: worker ${workers.workerUrl} and sandbox ${workers.sandboxUrl} are up`);

await runNodeTests({
  suite: SUITE, dir: here, stop: () => workers.stop(),
  env: { REELGATE_TEST_WORKER: workers.workerUrl, REELGATE_CHROMIUM_PATH: browser.path },
});
