// Bundles the conformance gate (conformance-worker.ts) for the worker test pools, which run it between every caller
// and the sandbox upstream (vitest.config.mts, test/platform/vitest.documented.config.mts).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const GATE_BUNDLE = here('../../.build/conformance-gate.js');

export async function buildConformanceGate() {
  await build({
    entryPoints: [here('./conformance-worker.ts')],
    outfile: GATE_BUNDLE,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
}

/**
 * Miniflare options of the gate as an auxiliary worker named `platform`, in front of the worker named `sandbox`.
 * `mode`: `check` (refuse a nonconforming answer) or `documented` (also drop what the definition does not name).
 */
export function conformanceGateOptions(mode = 'check') {
  return {
    name: 'platform',
    modules: [{ type: 'ESModule', path: GATE_BUNDLE }],
    compatibilityDate: '2026-04-01',
    serviceBindings: { UPSTREAM: 'sandbox' },
    bindings: { MODE: mode },
  };
}
