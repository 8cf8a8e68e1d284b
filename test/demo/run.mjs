#!/usr/bin/env node
// `npm run test:demo`: the publisher demo page in Chromium, against the real worker and sandbox, which this starts with
// `wrangler dev` (test/support/dev-workers.mjs, from 24787/24788) and stops after. The tests are node:test files in
// this folder (languages.test.mjs); the summary goes to .build/summaries/demo.json.
import { fileURLToPath } from 'node:url';
import { runBrowserSuite } from '../support/node-suite.mjs';

await runBrowserSuite({
  suite: 'demo',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  workers: {
    workerPort: Number(process.env.REELGATE_DEMO_WORKER_PORT ?? 24787),
    sandboxPort: Number(process.env.REELGATE_DEMO_SANDBOX_PORT ?? 24788),
    inspectorPort: 24887,
    statePrefix: 'reelgate-demo-',
  },
});
