// Bindings of the edge worker that the fault suites read (test/env.d.ts has the pool's).
declare namespace Cloudflare {
  interface Env {
    CACHE: KVNamespace;
    BUDGET: DurableObjectNamespace<import('../../worker/budget/budget-object.ts').BudgetObject>;
    REELGATE_CONFIG: string;
    ADDRESS_SALT: string;
    /** The fuzz's seeds, comma-separated (vitest.config.mts `fuzzBindings`); empty for the fixed seeds of `npm test`. */
    FUZZ_SEEDS: string;
    /** Generated requests per seed; empty for the default. */
    FUZZ_CASES: string;
    /** `fixed` (npm test), `replay` (FUZZ_SEED / --seed) or `hunt` (npm run fuzz). */
    FUZZ_MODE: string;
    /** The gateway's database and its schema (worker/gateway/migrations), when the worker has a gateway. */
    GATEWAY_DB?: D1Database;
    GATEWAY_MIGRATIONS: import('cloudflare:test').D1Migration[];
    ADMIN_TOKEN: string;
    V1_SIGNING_SECRET: string;
  }
}
