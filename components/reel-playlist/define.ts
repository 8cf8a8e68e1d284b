/**
 * Registers `<reel-playlist>` (unless the page already has it) and declares the tag for TypeScript. The class
 * module (./reel-playlist.ts) has no side effects: the entry points import this.
 */
import { define } from '../shared/define.ts';
import { ReelPlaylist } from './reel-playlist.ts';

define('reel-playlist', ReelPlaylist);

declare global {
  interface HTMLElementTagNameMap {
    'reel-playlist': ReelPlaylist;
  }
}
