/**
 * Loads the player's playback kit (kit/player-kit.ts), the element's lazily loaded part: everything it does once it
 * has something to play. A plain dynamic import in the library build and the test server (a bundler makes its own
 * chunk); the embed build swaps this module for an import of the versioned file it wrote beside the bundle
 * (`/embed/reelgate-kit.<hash>.js`; components/build-options.mjs, `chunkModules`), so the script tag stays one small
 * file. The kit loads hls.js the same way (kit/hls-chunk.ts), only for a player that plays HLS through MSE.
 */
export const loadKit = () => import('./kit/player-kit.ts');
