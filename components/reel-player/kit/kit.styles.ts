/**
 * The kit's own styles, added to the element's shadow root as a constructed sheet (CSSOM, so a page's CSP that forbids
 * inline styles allows it). The element's core styles (reel-player.styles.ts) keep the geometry.
 */
export const KIT_CSS = `
/* Its content never widens the player (size containment: a phone's page must not zoom out for a row of menus); the
   menus shrink to fit instead. */
.toolbar{gap:.5rem;contain:inline-size}
.toolbar label{display:inline-flex;align-items:center;gap:.5rem;min-inline-size:0;color:var(--_muted);font-size:.875rem}
select{font:inherit;color:var(--_text);background:var(--_raised);border:1px solid var(--_border);border-radius:var(--_radius);padding-block:.25rem;padding-inline:.5rem;block-size:2.25rem;max-inline-size:9rem;min-inline-size:0;text-overflow:ellipsis}
.timeline{position:relative;flex:1 1 8rem;min-inline-size:4rem;display:flex;align-items:center;block-size:100%}
.timeline input{inline-size:100%;margin:0;accent-color:var(--reel-color-focus,#2563eb)}
.timeline input:focus-visible{outline:2px solid var(--reel-color-focus,#2563eb);outline-offset:2px}
.mark{position:absolute;inset-block-start:50%;inline-size:3px;block-size:.875rem;translate:-1px -50%;background:var(--reel-color-text,#111);opacity:.7;pointer-events:none}
.preview{position:absolute;inset-block-end:.5rem;inline-size:120px;block-size:68px;background-color:#000;background-repeat:no-repeat;border:2px solid #fff;border-radius:4px;box-shadow:0 2px 8px rgb(0 0 0/.5);pointer-events:none;z-index:2}
.preview span{position:absolute;inset-inline:0;inset-block-end:0;text-align:center;font-size:.75rem;color:#fff;background:rgb(0 0 0/.6)}
.up-next{position:absolute;inset-block-start:.75rem;inset-inline-end:.75rem;max-inline-size:calc(100% - 1.5rem);padding:.75rem;color:#fff;background:rgb(0 0 0/.82);border-radius:var(--reel-radius,.5rem);z-index:3}
.up-next p{margin:0 0 .5rem}
.up-next button{font:inherit;margin-inline-end:.5rem;padding:.25rem .75rem;border-radius:var(--reel-radius,.5rem);border:1px solid #fff;color:#fff;background:transparent;cursor:pointer}
.up-next button:first-of-type{color:#000;background:#fff}
.up-next button:focus-visible{outline:2px solid var(--reel-color-focus,#60a5fa);outline-offset:2px}
@media (forced-colors:active){.mark{background:CanvasText}.preview{border-color:CanvasText}}
`;
