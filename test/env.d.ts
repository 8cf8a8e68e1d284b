// The test pool's bindings: the edge worker's own, as generated from wrangler.toml (`npm run types`), plus what the
// pool adds (vitest.config.mts, test/faults/vitest.config.mts).
/// <reference path="../worker/worker-configuration.d.ts" />
declare namespace Cloudflare {
  interface Env {
    SANDBOX: Fetcher;
  }
}

/** parse-prometheus-text-format (test/worker/metrics.test.ts) ships no types: the shape it returns. */
declare module 'parse-prometheus-text-format' {
  interface Sample { value: string; labels?: Record<string, string> }
  interface Family { name: string; help: string; type: string; metrics: Sample[] }
  export default function parsePrometheusTextFormat(text: string): Family[];
}
