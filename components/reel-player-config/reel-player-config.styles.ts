import { css } from 'lit';

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
  .name {
    margin: 0;
    font-size: 1.125rem;
    font-weight: 700;
  }
  .channel {
    display: inline-block;
    margin-block-start: 0.25rem;
    padding-block: 0.0625rem;
    padding-inline: 0.5rem;
    border-radius: 999px;
    background: var(--_raised);
    border: 1px solid var(--_border);
    color: var(--_muted);
    font-size: 0.8125rem;
  }
  dl {
    display: grid;
    grid-template-columns: minmax(8rem, 1fr) minmax(8rem, 1.3fr);
    gap: 0.5rem var(--_gap);
    margin-block: var(--_gap) 0;
    margin-inline: 0;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  code {
    font-family: var(--reel-font-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    font-size: 0.8125rem;
  }
  dt code {
    color: var(--_muted);
  }
  .key {
    display: block;
    font-size: 0.75rem;
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
