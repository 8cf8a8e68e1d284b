// Component suites in real Chromium: the one test/support/find-browser.mjs picks (CHROME_PATH, a system Chromium, or
// the one from @sparticuz/chromium). `npm run test:components` (test/run-browser-tests.mjs) starts the edge worker and
// the sandbox for the integration suite, and passes their address in REELGATE_TEST_WORKER; this server then forwards
// /api/* to it, so the elements under test reach the real worker from their own origin.
import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playbackGate } from './test/components/support/playback-gate.mjs';
import { summaryReporter } from './test/components/support/summary-reporter.mjs';
import { CHROMIUM_ARGS, findBrowser } from './test/support/find-browser.mjs';

const worker = process.env.REELGATE_TEST_WORKER;
const unit = 'test/components/**/*.test.ts';
const integration = 'test/components/integration/**/*.test.ts';

/** Forwards /api/* to the worker started for the integration suite, headers included (x-reelgate-dev-ip). */
function apiProxy() {
  return async (context, next) => {
    if (!worker || !context.path.startsWith('/api/')) return next();
    const headers = {};
    for (const [name, value] of Object.entries(context.request.headers)) {
      if (!['host', 'connection', 'origin', 'referer', 'cookie'].includes(name)) headers[name] = value;
    }
    const response = await fetch(new URL(context.url, worker), { method: context.method, headers });
    context.status = response.status;
    for (const [name, value] of response.headers) {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) {
        context.set(name, value);
      }
    }
    context.body = Buffer.from(await response.arrayBuffer());
  };
}

export default {
  rootDir: '.',
  nodeResolve: true,
  files: worker ? [unit] : [unit, `!${integration}`],
  // One page at a time: a page in a background tab gets no ResizeObserver or animation frames.
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  testsFinishTimeout: 300000,
  // The gate first: the renewal test drops a playback URL's connection part-way (test/components/support/playback-gate.mjs).
  middleware: [playbackGate(worker), apiProxy()],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'test/components/support/esbuild-tsconfig.json' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: findBrowser().path,
        args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
      },
    }),
  ],
  reporters: [defaultReporter(), summaryReporter()],
};
