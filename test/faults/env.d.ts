// Bindings of the edge worker that the fault suites read (test/env.d.ts has the pool's).
declare namespace Cloudflare {
  interface Env {
    REELGATE_CONFIG: string;
    ADDRESS_SALT: string;
    /** Replays one fuzz run (test/faults/fuzz.test.ts prints its seed); empty for a new seed. */
    REELGATE_FUZZ_SEED: string;
    /** The gateway's database and its schema (worker/gateway/migrations), when the worker has a gateway. */
    GATEWAY_DB?: D1Database;
    GATEWAY_MIGRATIONS: import('cloudflare:test').D1Migration[];
    ADMIN_TOKEN: string;
  }
}
