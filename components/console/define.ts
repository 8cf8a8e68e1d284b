/**
 * Registers `<reel-console>` and the `<reel-chart>` it draws with (each unless the page already has it), and declares
 * the tags for TypeScript. The console's own bundle (`npm run build` → dist/admin/console.js) starts here; nothing of
 * the console is in the embed.
 */
import { define } from '../shared/define.ts';
import { ReelChart } from './reel-chart.ts';
import { ReelConsole } from './reel-console.ts';

define('reel-chart', ReelChart);
define('reel-console', ReelConsole);

declare global {
  interface HTMLElementTagNameMap {
    'reel-chart': ReelChart;
    'reel-console': ReelConsole;
  }
}
