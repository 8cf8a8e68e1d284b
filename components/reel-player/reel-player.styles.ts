import { css } from 'lit';

export const playerStyles = css`
  :host {
    /* Its rows' margins stay inside: the box is the frame plus the rows, as reelgate.css reserves it. */
    display: flow-root;
  }
  .frame {
    position: relative;
    inline-size: 100%;
    aspect-ratio: var(--_ratio, 16 / 9);
    background: var(--reel-player-background, #000);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  /*
   * Out of flow: the frame's size is its ratio's alone; a configuration of another shape letterboxes inside it. The
   * poster image has the video's box, so the video's own poster covers it exactly.
   */
  video,
  img {
    position: absolute;
    inset: 0;
    margin: auto;
    inline-size: var(--_w, 100%);
    block-size: var(--_h, 100%);
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
  .frame > .message {
    position: absolute;
    inset: 0;
    overflow: auto;
  }
  /* Rows of fixed size, filled or not, so nothing under the player moves when they are. */
  .toolbar {
    display: flex;
    justify-content: end;
    align-items: center;
    margin-block-start: 0.5rem;
    block-size: 2.25rem;
    overflow: hidden;
  }
  .title-row {
    margin-block: 0.75rem 0.25rem;
    font-size: var(--reel-player-title-size, 1.25rem);
    font-weight: 700;
    line-height: 1.3;
    block-size: 1lh;
    overflow: hidden;
  }
  .title {
    margin: 0;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .description-row {
    color: var(--_muted);
    line-height: 1.5;
    block-size: calc(var(--reel-player-description-lines, 2) * 1lh);
    overflow: hidden;
  }
  .description {
    margin: 0;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: var(--reel-player-description-lines, 2);
    overflow: hidden;
  }
  @media (forced-colors: active) {
    .frame {
      border: 1px solid CanvasText;
    }
  }
`;
