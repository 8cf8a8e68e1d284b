/**
 * Loads hls.js (hls-engine.ts), the kit's own lazily loaded part. A plain dynamic import in the library build and the
 * test server; the embed build swaps this module for an import of the versioned file it wrote beside the bundle
 * (`/embed/reelgate-hls.<hash>.js`; components/build-options.mjs, `chunkModules`).
 */
export const loadHls = () => import('./hls-engine.ts');
