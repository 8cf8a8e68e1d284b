// The edge worker's own bindings, as the worker tests see them (test/env.d.ts has the pool's).
declare namespace Cloudflare {
  interface Env {
    CACHE: KVNamespace;
    BUDGET: DurableObjectNamespace<import('../../worker/budget/budget-object.ts').BudgetObject>;
    REELGATE_CONFIG: string;
    ADDRESS_SALT: string;
    PLAYBACK_KEYS: string;
    GEO_CLIENT: string;
  }
}
declare namespace Cloudflare {
  interface Env {
    /** JSON list of the files in dist/ when the suites started (vitest.config.mts). */
    TEST_DIST_FILES: string;
  }
}
