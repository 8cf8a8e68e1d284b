import { css } from 'lit';

/** The element's box, its skeleton and its error; the panel's own styles come with the panel (panel.styles.ts). */
export const playerConfigStyles = css`
  :host {
    display: block;
  }
  /* One fixed size from first paint for the skeleton, the panel and the error, however many options arrive. */
  :host([state]:not([state='idle'])) {
    block-size: var(--reel-player-config-block-size, 20rem);
  }
  .panel,
  .message {
    box-sizing: border-box;
    max-block-size: 100%;
    overflow: auto;
  }
  .panel {
    block-size: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: var(--_gap);
  }
  .skeleton.line {
    block-size: 1rem;
    margin-block: 0.5rem;
  }
  /* Widths as classes, not style attributes: a page whose CSP has no 'unsafe-inline' for styles refuses those. */
  .line-1 { inline-size: 40%; }
  .line-2 { inline-size: 90%; }
  .line-3 { inline-size: 75%; }
  .line-4 { inline-size: 85%; }
`;
