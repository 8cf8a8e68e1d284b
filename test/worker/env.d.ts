// What vitest.config.mts adds for the worker tests (test/env.d.ts has the edge worker's own bindings).
declare namespace Cloudflare {
  interface Env {
    /** JSON list of the files in dist/ when the suites started (vitest.config.mts). */
    TEST_DIST_FILES: string;
  }
}
