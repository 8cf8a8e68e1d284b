import { css } from 'lit';

/** The configuration panel's styles: part of the panel's chunk in the embed (panel-chunk.ts). */
export const panelStyles = css`
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
`;
