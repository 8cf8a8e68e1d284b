import { css } from 'lit';

export const geoGateStyles = css`
  :host {
    display: block;
  }
  .cell {
    display: grid;
  }
  .cell > * {
    grid-area: 1 / 1;
  }
  .off {
    visibility: hidden;
  }
  .denied {
    display: grid;
    gap: 0.5rem;
  }
  .reason {
    margin: 0;
    min-block-size: 2lh;
    color: var(--_muted);
  }
  .pending {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    color: var(--_muted);
    padding-block: var(--_gap);
  }
  .spinner {
    inline-size: 1.25rem;
    block-size: 1.25rem;
    border-radius: 50%;
    border: 3px solid var(--_skeleton);
    border-block-start-color: var(--_accent);
    animation: reel-spin 0.9s linear infinite;
  }
  @keyframes reel-spin {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
  @media (forced-colors: active) {
    .spinner {
      border-color: GrayText;
      border-block-start-color: Highlight;
    }
  }
`;
