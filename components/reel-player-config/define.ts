/**
 * Registers `<reel-player-config>` (unless the page already has it) and declares the tag for TypeScript. The class
 * module (./reel-player-config.ts) has no side effects: the entry points import this.
 */
import { define } from '../shared/define.ts';
import { ReelPlayerConfig } from './reel-player-config.ts';

define('reel-player-config', ReelPlayerConfig);

declare global {
  interface HTMLElementTagNameMap {
    'reel-player-config': ReelPlayerConfig;
  }
}
