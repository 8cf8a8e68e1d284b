// What test/faults/vitest.config.mts adds to the edge worker's bindings (test/env.d.ts has the rest).
declare namespace Cloudflare {
  interface Env {
    /** The fuzz's seeds, comma-separated (vitest.config.mts `fuzzBindings`); empty for the fixed seeds of `npm test`. */
    FUZZ_SEEDS: string;
    /** Generated requests per seed; empty for the default. */
    FUZZ_CASES: string;
    /** `fixed` (npm test), `replay` (FUZZ_SEED / --seed) or `hunt` (npm run fuzz). */
    FUZZ_MODE: string;
    /** The gateway's schema (worker/gateway/migrations), applied by setup.ts. */
    GATEWAY_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
