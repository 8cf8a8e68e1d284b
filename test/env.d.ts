// Bindings the worker test pool adds to the edge worker's own (vitest.config.mts).
declare namespace Cloudflare {
  interface Env {
    SANDBOX: Fetcher;
    API_BASE_URL: string;
    GEO_API_URL: string;
    API_SECRET: string;
    GEO_API_KEY: string;
    DEV_MODE: string;
  }
}
