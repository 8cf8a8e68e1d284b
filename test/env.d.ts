// The test pool's bindings: the edge worker's own, as generated from wrangler.toml (`npm run types`), plus what the
// pool adds (vitest.config.mts, test/faults/vitest.config.mts).
/// <reference path="../worker/worker-configuration.d.ts" />
declare namespace Cloudflare {
  interface Env {
    SANDBOX: Fetcher;
  }
}
