/**
 * The player's lazily loaded parts. In the library build and the test server these are plain dynamic imports (a
 * bundler makes its own chunks); the embed build swaps this module for one that imports the versioned files it wrote
 * beside the bundle (`/embed/reelgate-kit.<hash>.js`, `/embed/reelgate-hls.<hash>.js`), so the script tag stays one
 * small file and a page whose players need no MSE never fetches hls.js (components/build.mjs, `chunkModules`).
 */
export const loadKit = () => import('./kit/player-kit.ts');
export const loadHls = () => import('./hls-engine.ts');
