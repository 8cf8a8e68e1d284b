// Worker-side suites run inside workerd. The edge worker is the main worker (wrangler.toml); the sandbox upstream runs
// beside it as a second, real worker, bundled here from demo/sandbox/. Every outbound fetch of the main worker (and of
// the test code, which runs in it) is routed to the sandbox, so the worker's code path is the production one. Between
// them stands the conformance gate (test/platform/): every answer of a documented route is checked against the
// platform's published definition, and one that does not match fails the test that received it.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { mkdirSync, readdirSync } from 'node:fs';
import { buildSandbox, sandboxWorkerOptions } from './demo/sandbox/build.mjs';
import { seededCatalog } from './test/worker/seed-ids.mjs';
import { buildConformanceGate, conformanceGateOptions } from './test/platform/build.mjs';

await buildSandbox();
await buildConformanceGate();
// The static-assets directory must exist for the worker to start, even before `npm run build` has filled it.
mkdirSync('./dist', { recursive: true });
const reelgateConfig = await edgeWorkerTestConfig();
// The gateway's D1 schema; test/gateway applies it with applyD1Migrations.
const gatewayMigrations = await readD1Migrations('./worker/gateway/migrations');

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        outboundService: 'platform',
        serviceBindings: { SANDBOX: 'platform' },
        bindings: {
          API_BASE_URL: 'http://sandbox.test',
          GEO_API_URL: 'http://sandbox.test',
          DELIVERY_BASE_URL: 'http://sandbox.test',
          API_SECRET: 'sandbox-api-secret-not-for-production',
          GEO_API_KEY: 'sandbox-geo-key-not-for-production',
          SIGNED_SITE_SECRET: 'sandbox-url-signing-secret-not-for-production',
          DEV_MODE: 'true',
          GEO_CLIENT: 'reelgate-test',
          ADDRESS_SALT: 'test-address-salt',
          // Playback signing keys (worker/playback/keys.ts): test-only, the first one signs.
          PLAYBACK_KEYS: 'test2026a:test-playback-key-one-not-for-production-0001',
          REELGATE_CONFIG: JSON.stringify(reelgateConfig),
          // What `npm run build` left in dist/, so the asset suite knows the versioned embed's name.
          TEST_DIST_FILES: JSON.stringify(readdirSync('./dist')),
          ADMIN_TOKEN: 'sandbox-admin-token-not-for-production',
          // Derives the access keys' v1 secrets (worker/docs/gateway.md, "v1 signature setup"). Test-only.
          V1_SIGNING_SECRET: 'test-v1-signing-secret-not-for-production-0001',
          GATEWAY_MIGRATIONS: gatewayMigrations,
        },
        // Low enough that the abuse-limit test can trip it, high enough that no other test does.
        ratelimits: { VISITOR_LIMIT: { namespace_id: '1001', simple: { limit: 200, period: 60 } } },
        workers: [conformanceGateOptions(process.env.REELGATE_UPSTREAM_MODE ?? 'check'), sandboxWorkerOptions()],
      },
    }),
  ],
  test: {
    // Browser suites (test/components) run in Chromium through web-test-runner, never here.
    include: ['test/{sandbox,upstream,worker,gateway,platform}/**/*.test.ts'],
    // A bound on a hung test, not a speed target: generous, so a busy machine cannot fail a test by its clock.
    testTimeout: 30_000,
    // Console output goes straight to workerd's stdout and stderr. Intercepted, a line logged from another I/O
    // context (a Durable Object, a waitUntil task) is parked until the runner's next message; logged during a file's
    // last round trip it never leaves, and the whole run waits on it forever (workers-sdk #15498, #15719).
    disableConsoleIntercept: true,
    reporters: ['default', './test/support/vitest-summary-reporter.mjs'],
  },
});

/**
 * The edge worker's configuration in the tests: the sandbox's seeded sites (the third one signing its URLs), policies
 * bound to a site, a playlist and a media of the seed, and small budget and cache windows so no test waits for minutes.
 */
async function edgeWorkerTestConfig() {
  const [northwind, harbour, sealed] = await seededCatalog();
  // The site whose property enforces URL signing (the sandbox's third): its secret is the SIGNED_SITE_SECRET binding,
  // and one of its ready videos is bound to a policy, so its bytes go through the worker's signed fetches.
  const now = Date.now();
  const sealedGated = sealed.media.find((m) => m.status === 'ready' && m.media_type === 'video'
    && Date.parse(m.metadata.publish_start_date ?? '') < now
    && !(Date.parse(m.metadata.publish_end_date ?? '') <= now));
  const playlist = (site, type, nth = 0) => site.playlists.filter((p) => p.playlist_type === type)[nth];
  const picks = playlist(northwind, 'manual');
  return {
    allowed_origins: ['https://publisher.example'],
    custom_params_allowlist: ['series', 'episode'],
    sites: {
      [northwind.id]: {
        playlists: {
          [playlist(northwind, 'dynamic').id]: 'gb-only',
          [playlist(northwind, 'search').id]: 'not-us',
        },
        media: { [picks.metadata.media_filter.include.values[0]]: 'no-proxies' },
      },
      [harbour.id]: { policy: 'europe' },
      [sealed.id]: { url_signing: { secret: 'SIGNED_SITE_SECRET' }, media: { [sealedGated.id]: 'europe' } },
    },
    policies: {
      'gb-only': { allow_countries: ['GB'], unknown: 'deny' },
      europe: { allow_continents: ['EU'], unknown: 'deny' },
      'no-proxies': { deny_proxy_identifications: ['tor_exit', 'vpn'], deny_proxy_types: ['anonymous', 'hosting'], unknown: 'allow' },
      'not-us': { deny_countries: ['US'], unknown: 'allow' },
    },
    cache: {
      memory_ms: 1000,
      feed: { fresh_seconds: 30, stale_seconds: 600 },
      media: { fresh_seconds: 30, stale_seconds: 600 },
      player: { fresh_seconds: 30, stale_seconds: 600 },
      geo: { fresh_seconds: 300, stale_seconds: 600 },
      not_found: { fresh_seconds: 30, stale_seconds: 0 },
    },
    budget: { rate_per_minute: 50, burst: 30, max_wait_ms: 400, upstream_timeout_ms: 3000 },
    feed: { default_page_length: 10, max_page_length: 50, max_items: 100 },
  };
}
