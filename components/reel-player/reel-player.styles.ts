import { css } from 'lit';

export const playerStyles = css`
  :host {
    display: block;
  }
  .frame {
    position: relative;
    inline-size: 100%;
    aspect-ratio: var(--_ratio, 16 / 9);
    background: var(--reel-player-background, #000);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  video {
    display: block;
    inline-size: 100%;
    block-size: 100%;
    object-fit: var(--_fit, contain);
    background: transparent;
  }
  .frame.skeleton {
    background: var(--_skeleton);
  }
  .placeholder {
    position: absolute;
    inset: 0;
    display: grid;
    place-items: center;
    padding: var(--_gap);
    text-align: center;
    color: #e8ebf0;
  }
  .placeholder.failed {
    inset-block-end: auto;
    padding-block: 0.5rem;
    background: rgb(0 0 0 / 0.72);
    pointer-events: none;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    justify-content: end;
    gap: 0.5rem;
    margin-block-start: 0.5rem;
  }
  .toolbar label {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    color: var(--_muted);
    font-size: 0.875rem;
  }
  select {
    font: inherit;
    color: var(--_text);
    background: var(--_raised);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding-block: 0.25rem;
    padding-inline: 0.5rem;
    min-block-size: 2.25rem;
  }
  .title {
    margin-block: 0.75rem 0.25rem;
    margin-inline: 0;
    font-size: var(--reel-player-title-size, 1.25rem);
    font-weight: 700;
  }
  .description {
    margin: 0;
    color: var(--_muted);
  }
  .message {
    margin-block-start: 0.5rem;
  }
  @media (forced-colors: active) {
    .frame {
      border: 1px solid CanvasText;
    }
  }
`;
