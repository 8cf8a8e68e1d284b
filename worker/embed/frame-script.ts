/**
 * The two small scripts of an iframe embed.
 *
 * `FRAME_SCRIPT` runs inside every embed page (inline, allowed by its hash in the page's CSP, security-headers.ts): it
 * tells the parent page the height the frame wants, as `{type: 'reelgate:resize', height}` posted to any origin, and,
 * with DEV_MODE on, hands the elements the stand-in visitor address of a `?dev_ip=` embed URL.
 *
 * The height is never measured from what the page shows. It is the frame's layout for its kind (`frameLayout`: a
 * player's 16:9 and its rows, plus the shelf's room for a playlist), computed from the frame's width (which the
 * parent sets) and the root font size (the viewer's setting), read from the page's `reelgate-frame` meta. A refused
 * visitor's page carries the same meta as an allowed one's, so both post the same heights at the same moments (once
 * at start, again only when the width or font size changes): a parent on any origin learns nothing of the geo
 * decision from them. What does not fit scrolls inside the frame.
 *
 * `resizeSnippet(origin)` is what a parent page adds (the oEmbed `html` carries it after the iframe): it sets the
 * height of the iframe that sent the message, trusting only messages from the worker's origin.
 */
import type { EmbedKind } from './targets.ts';

export const FRAME_SCRIPT = "(()=>{const d=document,q=n=>d.querySelector('meta[name=\"reelgate-'+n+'\"]'),m=q('dev-ip');"
  + 'if(m)window.reelgate={devIp:m.content};const l=q(\'frame\');if(parent===window||!l)return;'
  + "const[a,b]=l.content.split(' ').map(Number),r=d.documentElement;let h=-1;"
  + 'const f=()=>{const n=Math.ceil(innerWidth*a+b*parseFloat(getComputedStyle(r).fontSize));'
  + "if(n>0&&n!==h){h=n;parent.postMessage({type:'reelgate:resize',height:n},'*')}};f();addEventListener('resize',f)})()";

/** `'sha256-…'` of FRAME_SCRIPT, for the embed pages' `script-src` (test/worker/oembed.test.ts checks it). */
export const FRAME_SCRIPT_HASH = "'sha256-QY12s2yTaGZUL480cbzVSBuZ/ev+0A/umChcGceZn6U='";

/** Room under a playlist embed's player for the shelf (as `/oembed` sizes it: 420 px at the default font size). */
const SHELF_REM = 26.25;
/**
 * The player's rows as reel-player.styles.ts sizes them (components/reelgate.css reserves the same): the title row
 * (0.75rem + 0.25rem of margins, one line of 1.3 × 1.25rem) and two lines of description (1.5 × 1rem each); with a
 * `player`, the toolbar too (0.5rem of margin, 2.25rem high).
 */
const TITLE_AND_DESCRIPTION_REM = 2.625 + 3;
const TOOLBAR_REM = 2.75;

/**
 * The frame's layout for an embed URL, from what the URL alone says (its kind and whether it names a player), never
 * from its content or the visitor's decision: the height the frame posts is `width × ratio + rem × root font size`.
 * Written into every embed page, refused or not, as `<meta name="reelgate-frame" content="<ratio> <rem>">`.
 */
export function frameLayout(kind: EmbedKind, player: boolean): { ratio: number; rem: number } {
  const rows = TITLE_AND_DESCRIPTION_REM + (player ? TOOLBAR_REM : 0);
  return { ratio: 9 / 16, rem: kind === 'media' ? rows : rows + SHELF_REM };
}

/** The parent page's half: resizes the iframe a `reelgate:resize` message came from, for messages from `origin` only. */
export function resizeSnippet(origin: string): string {
  return `<script>addEventListener('message',function(e){var d=e.data;if(e.origin!==${JSON.stringify(origin)}`
    + "||!d||d.type!=='reelgate:resize'||!(d.height>0&&d.height<100000))return;"
    + "document.querySelectorAll('iframe').forEach(function(f){if(f.contentWindow===e.source)f.style.height=d.height+'px'})})"
    + '</script>';
}
