// The fault-and-abuse suite (`npm run test:faults`, part of `npm test`): the real edge worker in workerd in front of
// the real sandbox upstream, as in the worker suites (../../vitest.config.mts), but with the shipped configuration of
// wrangler.toml and only the timings shortened so a fault costs seconds, not minutes. Three projects, because each
// needs its own worker settings:
// - `faults-fresh-cache`: upstream latency against fresh cache entries (long fresh windows);
// - `faults-stale-cache`: outage, 429 storm and error rate against entries that are already stale (1 s fresh window),
//   so every read also starts a background refresh that meets the fault;
// - `fuzz`: 10,000+ generated hostile requests with DEV_MODE off, as deployed.
// `npm run test:worker` does not run these files: the root config includes only its own folders.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unstable_readConfig } from 'wrangler';
import { defineConfig } from 'vitest/config';
import { buildSandbox, sandboxWorkerOptions } from '../../demo/sandbox/build.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
await buildSandbox();
// The static-assets directory must exist for the worker to start, even before `npm run build` has filled it.
mkdirSync(`${root}dist`, { recursive: true });

// The gateway's D1 schema, applied by setup.ts before each file (as a deployment applies it with wrangler).
const migrationsDir = `${root}worker/gateway/migrations`;
const gatewayMigrations = existsSync(migrationsDir) ? await readD1Migrations(migrationsDir) : [];

/** The operator configuration as shipped in wrangler.toml; each project changes timings only. */
const shipped = unstable_readConfig({ config: `${root}wrangler.toml` }).vars.REELGATE_CONFIG as Record<string, any>;

/**
 * The fuzz's seeds (test/faults/fuzz.test.ts). Without anything set, its fixed seeds run, so `npm test` is the same
 * every time. `FUZZ_SEED=<n>[,<n>...]` (alias REELGATE_FUZZ_SEED) replays seeds. `npm run fuzz` sets FUZZ_HUNT=1 and
 * passes its arguments in FUZZ_ARGS: `--runs <k>` hunts k random seeds (default 1), `--seed <n>` replays one instead,
 * `--cases <n>` sets the requests per seed.
 */
function fuzzBindings(): { FUZZ_SEEDS: string; FUZZ_CASES: string; FUZZ_MODE: string } {
  const args = (process.env.FUZZ_ARGS ?? '').split(/\s+/).filter(Boolean);
  const given: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i]!, args[i + 1]];
    if (!['--runs', '--seed', '--cases'].includes(flag) || value === undefined || !/^\d+(,\d+)*$/.test(value)) {
      throw new Error(`npm run fuzz: expected --runs <k>, --seed <n> or --cases <n>, got "${args.join(' ')}"`);
    }
    given[flag.slice(2)] = value;
  }
  const seed = given.seed ?? (process.env.FUZZ_SEED || process.env.REELGATE_FUZZ_SEED || '');
  if (seed && !/^\d+(,\d+)*$/.test(seed)) throw new Error(`FUZZ_SEED must be a number (or numbers, comma-separated), got "${seed}"`);
  const cases = given.cases ?? (process.env.FUZZ_CASES || '');
  if (seed) return { FUZZ_SEEDS: seed, FUZZ_CASES: cases, FUZZ_MODE: 'replay' };
  if (process.env.FUZZ_HUNT !== '1') return { FUZZ_SEEDS: '', FUZZ_CASES: cases, FUZZ_MODE: 'fixed' };
  const runs = Number(given.runs ?? 1);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`npm run fuzz: --runs takes a count, got "${given.runs}"`);
  const seeds = Array.from({ length: runs }, () => randomInt(1, 2 ** 31 - 1));
  return { FUZZ_SEEDS: seeds.join(','), FUZZ_CASES: cases, FUZZ_MODE: 'hunt' };
}

const FUZZ = fuzzBindings();

/** Upstream timeout of every project: a miss under injected latency ends in about this long. */
export const UPSTREAM_TIMEOUT_MS = 1000;

function reelgateConfig(cache: Record<string, unknown>, budget: Record<string, unknown>): string {
  return JSON.stringify({
    ...shipped,
    cache: { ...shipped.cache, ...cache },
    budget: { ...shipped.budget, upstream_timeout_ms: UPSTREAM_TIMEOUT_MS, ...budget },
  });
}

const window = (fresh: number, stale: number) => ({ fresh_seconds: fresh, stale_seconds: stale });

function project(name: string, include: string[], options: { devMode: boolean; config: string; visitorLimit: number }) {
  return {
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}wrangler.toml` },
        miniflare: {
          outboundService: 'sandbox',
          serviceBindings: { SANDBOX: 'sandbox' },
          bindings: {
            API_BASE_URL: 'http://sandbox.test',
            GEO_API_URL: 'http://sandbox.test',
            DELIVERY_BASE_URL: 'http://sandbox.test',
            API_SECRET: 'sandbox-api-secret-not-for-production',
            GEO_API_KEY: 'sandbox-geo-key-not-for-production',
            SIGNED_SITE_SECRET: 'sandbox-url-signing-secret-not-for-production',
            ADDRESS_SALT: 'faults-address-salt',
            DEV_MODE: options.devMode ? 'true' : 'false',
            REELGATE_CONFIG: options.config,
            ADMIN_TOKEN: 'faults-admin-token-not-for-production',
            V1_SIGNING_SECRET: 'faults-v1-signing-secret-not-for-production',
            GATEWAY_MIGRATIONS: gatewayMigrations,
            ...FUZZ,
          },
          ratelimits: { VISITOR_LIMIT: { namespace_id: '1001', simple: { limit: options.visitorLimit, period: 60 } } },
          workers: [sandboxWorkerOptions()],
        },
      }),
    ],
    // Real time is part of every case (budgets refill, windows expire), so the bounds are minutes, not seconds.
    test: {
      name,
      include: include.map((path) => `test/faults/${path}`),
      setupFiles: ['test/faults/setup.ts'],
      testTimeout: 180_000,
      hookTimeout: 180_000,
      // Straight to workerd's streams: an intercepted line from another I/O context can stall the run (vitest.config.mts).
      disableConsoleIntercept: true,
    },
  };
}

export default defineConfig({
  root,
  test: {
    reporters: ['default', `${root}test/support/vitest-summary-reporter.mjs`, `${root}test/faults/tally-reporter.mjs`],
    // Each project has its own workerd instance, sandbox and budget, and spends most of its time waiting for the
    // budget to refill, so the three run side by side.
    maxWorkers: 3,
    projects: [
      // Fresh entries stay fresh for the whole project; the shipped visitor limit applies.
      project('faults-fresh-cache', ['upstream-latency.test.ts'], {
        devMode: true,
        visitorLimit: 120,
        config: reelgateConfig(
          { feed: window(600, 3600), media: window(600, 3600), player: window(600, 3600) },
          {},
        ),
      }),
      // Every entry is stale a second after it is written, so each read under a fault exercises stale-if-error.
      project('faults-stale-cache', ['upstream-failures.test.ts'], {
        devMode: true,
        visitorLimit: 120,
        config: reelgateConfig(
          { memory_ms: 0, feed: window(1, 3600), media: window(1, 3600), player: window(1, 3600) },
          {},
        ),
      }),
      // As deployed (DEV_MODE off). The per-visitor limit is raised so generated requests reach the routes instead
      // of stopping at it (its own tests live in test/worker); misses out of budget are refused at once.
      project('fuzz', ['fuzz.test.ts'], {
        devMode: false,
        visitorLimit: 1_000_000,
        config: reelgateConfig({}, { max_wait_ms: 0 }),
      }),
    ],
  },
});
