// What the pool adds for the gateway's tests (vitest.config.mts): the D1 migrations.
declare namespace Cloudflare {
  interface Env {
    GATEWAY_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
