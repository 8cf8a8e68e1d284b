// Bundles the sandbox upstream for the worker test pool, which runs it as a second worker beside the edge worker.
// (`npm start` serves it with wrangler from demo/sandbox/wrangler.toml instead; the bindings here mirror that file.)
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const SANDBOX_BUNDLE = here('../../.build/sandbox.js');

export async function buildSandbox() {
  await build({
    entryPoints: [here('./index.ts')],
    outfile: SANDBOX_BUNDLE,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    external: ['cloudflare:*'],
    logLevel: 'warning',
  });
}

/** Miniflare options of the sandbox as an auxiliary worker named `sandbox`. */
export function sandboxWorkerOptions() {
  return {
    name: 'sandbox',
    modules: true,
    scriptPath: SANDBOX_BUNDLE,
    compatibilityDate: '2026-04-01',
    durableObjects: { STATE: { className: 'SandboxState', useSQLite: true } },
    bindings: {
      API_SECRET: 'sandbox-api-secret-not-for-production',
      GEO_API_KEY: 'sandbox-geo-key-not-for-production',
      RATE_LIMIT_PER_MINUTE: '60',
    },
  };
}
