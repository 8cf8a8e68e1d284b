// Worker-side suites run inside workerd. The edge worker is the main worker (wrangler.toml); the sandbox upstream runs
// beside it as a second, real worker, bundled here from demo/sandbox/. Every outbound fetch of the main worker (and of
// the test code, which runs in it) is routed to the sandbox, so the worker's code path is the production one.
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { buildSandbox, sandboxWorkerOptions } from './demo/sandbox/build.mjs';

await buildSandbox();

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        outboundService: 'sandbox',
        serviceBindings: { SANDBOX: 'sandbox' },
        bindings: {
          API_BASE_URL: 'http://sandbox.test',
          GEO_API_URL: 'http://sandbox.test',
          API_SECRET: 'sandbox-api-secret-not-for-production',
          GEO_API_KEY: 'sandbox-geo-key-not-for-production',
          DEV_MODE: 'true',
        },
        workers: [sandboxWorkerOptions()],
      },
    }),
  ],
  test: {
    // Browser suites (test/components) run in Chromium through web-test-runner, never here.
    include: ['test/{sandbox,upstream,worker,gateway}/**/*.test.ts'],
    reporters: ['default', './test/support/vitest-summary-reporter.mjs'],
  },
});
