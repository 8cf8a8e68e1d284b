/**
 * The configuration panel (panel.ts): part of the element in the library build and the test server, there at once,
 * its styles among the element's, so a server render (Lit SSR) shows it styled. The embed build swaps this module for
 * an import of the versioned file it wrote beside the bundle (`/embed/reelgate-panel.<hash>.js`, with no styles here:
 * the element adopts the panel's when it arrives; components/build-options.mjs, `chunkModules`): a page with no
 * configuration panel loads none of it.
 */
import type { CSSResult } from 'lit';
import * as panel from './panel.ts';

export const loadPanel = (): typeof panel | Promise<typeof panel> => panel;
/** The panel's styles, when they are the element's own (not in the embed). */
export const panelStyles: CSSResult[] = [panel.panelStyles];
