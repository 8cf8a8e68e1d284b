// Bundles the sandbox upstream for the worker test pool, which runs it as a second worker beside the edge worker.
// (`npm start` serves it with wrangler from demo/sandbox/wrangler.toml instead; the bindings here mirror that file.)
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const SANDBOX_BUNDLE = here('../../.build/sandbox.js');
/** The sample media (demo/sandbox/media/): Data modules, as wrangler.toml's `rules` make them for `wrangler dev`. */
const MEDIA_EXTENSIONS = ['.mp4', '.m4a', '.mpegts'];
const MEDIA_DIR = 'sandbox-media';

export async function buildSandbox() {
  await build({
    entryPoints: [here('./index.ts')],
    outfile: SANDBOX_BUNDLE,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    external: ['cloudflare:*'],
    // The media files are copied beside the bundle and stay imports, which Miniflare loads as Data modules below.
    loader: Object.fromEntries(MEDIA_EXTENSIONS.map((extension) => [extension, 'copy'])),
    assetNames: `${MEDIA_DIR}/[name]`,
    logLevel: 'warning',
  });
}

/** Miniflare options of the sandbox as an auxiliary worker named `sandbox`. */
export function sandboxWorkerOptions() {
  return {
    name: 'sandbox',
    // Listed, not found by `modulesRules`: the vitest pool's Miniflare does not take rules for an auxiliary worker.
    modulesRoot: dirname(SANDBOX_BUNDLE),
    modules: [
      { type: 'ESModule', path: SANDBOX_BUNDLE },
      ...readdirSync(here('./media')).map((name) => ({ type: 'Data', path: join(dirname(SANDBOX_BUNDLE), MEDIA_DIR, name) })),
    ],
    compatibilityDate: '2026-04-01',
    durableObjects: { STATE: { className: 'SandboxState', useSQLite: true } },
    bindings: {
      API_SECRET: 'sandbox-api-secret-not-for-production',
      GEO_API_KEY: 'sandbox-geo-key-not-for-production',
      SIGNED_SITE_SECRET: 'sandbox-url-signing-secret-not-for-production',
      RATE_LIMIT_PER_MINUTE: '60',
    },
  };
}
