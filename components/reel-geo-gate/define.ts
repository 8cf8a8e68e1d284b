/**
 * Registers `<reel-geo-gate>` (unless the page already has it) and declares the tag for TypeScript. The class
 * module (./reel-geo-gate.ts) has no side effects: the entry points import this.
 */
import { define } from '../shared/define.ts';
import { ReelGeoGate } from './reel-geo-gate.ts';

define('reel-geo-gate', ReelGeoGate);

declare global {
  interface HTMLElementTagNameMap {
    'reel-geo-gate': ReelGeoGate;
  }
}
