// The gateway's bindings as its tests see them (vitest.config.mts adds ADMIN_TOKEN and the D1 migrations).
declare namespace Cloudflare {
  interface Env {
    GATEWAY_DB: D1Database;
    ADMIN_TOKEN: string;
    V1_SIGNING_SECRET: string;
    GATEWAY_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
