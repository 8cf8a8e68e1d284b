/**
 * The two small scripts of an iframe embed.
 *
 * `FRAME_SCRIPT` runs inside every embed page (inline, allowed by its hash in the page's CSP, security-headers.ts): it
 * tells the parent page the document's height whenever it changes, as `{type: 'reelgate:resize', height}` posted to
 * any origin (a height reveals nothing), and, with DEV_MODE on, hands the elements the stand-in visitor address of a
 * `?dev_ip=` embed URL. `resizeSnippet(origin)` is what a parent page adds (the oEmbed `html` carries it after the
 * iframe): it sets the height of the iframe that sent the message, trusting only messages from the worker's origin.
 */

export const FRAME_SCRIPT = "(()=>{const m=document.querySelector('meta[name=\"reelgate-dev-ip\"]');"
  + 'if(m)window.reelgate={devIp:m.content};if(parent===window)return;let h=-1;const r=document.documentElement;'
  + 'new ResizeObserver(()=>{const n=Math.ceil(r.getBoundingClientRect().height);'
  + "if(n!==h){h=n;parent.postMessage({type:'reelgate:resize',height:n},'*')}}).observe(r)})()";

/** `'sha256-…'` of FRAME_SCRIPT, for the embed pages' `script-src` (test/worker/oembed.test.ts checks it). */
export const FRAME_SCRIPT_HASH = "'sha256-f4SA5ISwd7lq19U6rnVpY33CjKvFyvr1rxcCQ+6KUEs='";

/** The parent page's half: resizes the iframe a `reelgate:resize` message came from, for messages from `origin` only. */
export function resizeSnippet(origin: string): string {
  return `<script>addEventListener('message',function(e){var d=e.data;if(e.origin!==${JSON.stringify(origin)}`
    + "||!d||d.type!=='reelgate:resize'||!(d.height>0&&d.height<100000))return;"
    + "document.querySelectorAll('iframe').forEach(function(f){if(f.contentWindow===e.source)f.style.height=d.height+'px'})})"
    + '</script>';
}
