/**
 * The refusal's words (refusal.ts): part of the element in the library build and the test server, there at once, so a
 * server render (Lit SSR) of a refused visitor says why. The embed build swaps this module for an import of the
 * versioned file it wrote beside the bundle (`/embed/reelgate-refusal.<hash>.js`; components/build-options.mjs,
 * `chunkModules`): a page whose visitors are allowed loads none of it.
 */
import * as refusal from './refusal.ts';

export const loadRefusal = (): typeof refusal | Promise<typeof refusal> => refusal;
