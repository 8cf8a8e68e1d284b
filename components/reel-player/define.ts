/**
 * Registers `<reel-player>` (unless the page already has it) and declares the tag for TypeScript. The class
 * module (./reel-player.ts) has no side effects: the entry points import this.
 */
import { define } from '../shared/define.ts';
import { ReelPlayer } from './reel-player.ts';

define('reel-player', ReelPlayer);

declare global {
  interface HTMLElementTagNameMap {
    'reel-player': ReelPlayer;
  }
}
