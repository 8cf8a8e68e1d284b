#!/usr/bin/env node
// `npm run test:ssr`: server-side rendering, as a publisher's framework does it, in Chromium.
// 1. Packs the package as `npm pack` ships it (after `npm run build`) and unpacks it into a throwaway app,
//    .build/ssr/app/node_modules/reelgate, beside two files of that app: render.mjs (the server side: @lit-labs/ssr and
//    `import 'reelgate'`, resolved to the packed copy) and client.js (the browser side: @lit-labs/ssr-client's
//    hydration support, then `import 'reelgate'`, bundled from the packed copy). Lit and @lit-labs/* come from this
//    repository's node_modules, as a publisher's app has its own; nothing is fetched.
// 2. Starts the sandbox upstream and the edge worker with `wrangler dev` (test/support/dev-workers.mjs: DEV_MODE on,
//    the sandbox-only secrets of .dev.vars.example, RENDER_TOKEN included) on free ports from 22787/22788, apart from
//    the other browser suites', for the framework examples (demo/ssr-astro, demo/ssr-node, built by `npm run
//    check:apps`). REELGATE_SKIP_INTEGRATION=1 leaves them out (and their file skips).
// 3. Runs test/ssr/*.test.mjs with `node --test`, one file at a time; the summary reporter writes
//    .build/summaries/ssr.json. Stops the workers and exits with the tests' status.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startDevWorkers } from '../support/dev-workers.mjs';
import { chromiumOrFail, failSuite, runNodeTests } from '../support/node-suite.mjs';

const SUITE = 'ssr';
const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const work = join(root, '.build', 'ssr');
const app = join(work, 'app');

const fail = (reason) => failSuite(SUITE, reason);

const browser = chromiumOrFail(SUITE);

// 1. The packed package, in an app of its own.
try {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(app, 'node_modules', 'reelgate'), { recursive: true });
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' })
    .trim().split('\n').pop();
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', join(app, 'node_modules', 'reelgate'), '--strip-components=1']);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'publisher-app', private: true, type: 'module' }));
  writeFileSync(join(app, 'render.mjs'), [
    '// The server side of a publisher\'s app: Lit SSR, and the package as installed.',
    "import { render } from '@lit-labs/ssr';",
    "import { collectResult } from '@lit-labs/ssr/lib/render-result.js';",
    "import 'reelgate';",
    "export { reelgateServer, visitorLanguage } from 'reelgate/server';",
    "export { loadLanguage } from 'reelgate';",
    'export const renderToString = (template) => collectResult(render(template));',
    '',
  ].join('\n'));
  writeFileSync(join(app, 'client.mjs'), [
    '// The browser side: hydration support first (it must load before Lit), then the elements.',
    "import '@lit-labs/ssr-client/lit-element-hydrate-support.js';",
    "import 'reelgate';",
    '',
  ].join('\n'));
  // One file: esbuild's code splitting would hoist Lit into a shared chunk that runs before the hydration support.
  await build({
    entryPoints: [join(app, 'client.mjs')], absWorkingDir: app, bundle: true, format: 'esm',
    outdir: join(app, 'public'), target: 'es2022', logLevel: 'warning',
  });
} catch (error) {
  fail(`packing the package into ${app}: ${error.message}`);
}
console.log(`test:ssr: packed ${join(app, 'node_modules', 'reelgate')}`);

// 2. The worker and the sandbox, for the framework examples.
let workers = null;
if (process.env.REELGATE_SKIP_INTEGRATION !== '1') {
  try {
    workers = await startDevWorkers({
      label: 'test:ssr',
      workerPort: Number(process.env.REELGATE_SSR_WORKER_PORT ?? 22787),
      sandboxPort: Number(process.env.REELGATE_SSR_SANDBOX_PORT ?? 22788),
      inspectorPort: 23787,
      statePrefix: 'reelgate-ssr-',
    });
  } catch (error) {
    fail(error.message);
  }
  console.log(`test:ssr: worker ${workers.workerUrl} and sandbox ${workers.sandboxUrl} are up`);
}

// 3. The tests.
await runNodeTests({
  suite: SUITE, dir: here, stop: async () => workers?.stop(),
  env: { CHROME_PATH: browser.path, REELGATE_SSR_APP: app, ...(workers ? { REELGATE_TEST_WORKER: workers.workerUrl } : {}) },
});
