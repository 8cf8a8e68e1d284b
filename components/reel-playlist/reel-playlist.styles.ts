import { css } from 'lit';

export const playlistStyles = css`
  :host {
    display: block;
    container-type: inline-size;
  }
  /* Rows of fixed size, so the skeleton and the list it becomes have one geometry. */
  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--_gap);
    margin-block-end: 0.75rem;
    block-size: 1.75rem;
    white-space: nowrap;
    overflow: hidden;
  }
  .title {
    font-size: var(--reel-title-size, 1.125rem);
    font-weight: 700;
    margin: 0;
    min-inline-size: 0;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .count {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .cards {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_gap);
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--reel-card-min-width, 13rem)), 1fr));
  }
  :host([layout='list']) .cards {
    grid-template-columns: 1fr;
    gap: 0.5rem;
  }
  .card {
    display: grid;
    gap: 0.5rem;
    align-content: start;
    padding: 0.375rem;
    border: 2px solid transparent;
    border-radius: calc(var(--_radius) + 0.25rem);
    cursor: pointer;
    color: inherit;
    background: var(--_surface);
  }
  :host([layout='list']) .card {
    grid-template-columns: minmax(7rem, 30%) 1fr;
    align-items: center;
  }
  .card:hover {
    border-color: var(--_border);
  }
  .card[aria-selected='true'] {
    border-color: var(--_accent);
    background: var(--_raised);
  }
  .card:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 1px;
  }
  .thumb {
    position: relative;
    aspect-ratio: var(--reel-thumbnail-aspect-ratio, 16 / 9);
    border-radius: var(--_radius);
    overflow: hidden;
    background: var(--_skeleton);
  }
  .thumb img {
    display: block;
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
  }
  .placeholder {
    display: grid;
    place-items: center;
    block-size: 100%;
    font-size: 2rem;
    color: var(--_muted);
  }
  .duration {
    position: absolute;
    inset-block-end: 0.375rem;
    inset-inline-end: 0.375rem;
    padding-block: 0.0625rem;
    padding-inline: 0.375rem;
    border-radius: 0.25rem;
    background: rgb(0 0 0 / 0.78);
    color: #fff;
    font-size: 0.75rem;
    font-variant-numeric: tabular-nums;
  }
  .text {
    display: grid;
    gap: 0.125rem;
    grid-template-rows: 2lh 1lh;
    line-height: 1.4;
    min-inline-size: 0;
    overflow: hidden;
  }
  .card-title {
    font-weight: 600;
    overflow-wrap: anywhere;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  .meta {
    color: var(--_muted);
    font-size: 0.8125rem;
  }
  .skeleton-card .line {
    block-size: 1rem;
    inline-size: 80%;
  }
  .skeleton-card .line.short {
    inline-size: 40%;
  }
  /* A class, not a style attribute: a page whose CSP has no 'unsafe-inline' for styles refuses those. */
  .title-skeleton {
    display: inline-block;
    inline-size: 12rem;
    block-size: 1.25rem;
  }
  .off {
    visibility: hidden;
  }
  .footer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem var(--_gap);
    margin-block-start: var(--_gap);
  }
  .footer .error-text {
    color: var(--_danger);
    margin: 0;
  }
  @media (forced-colors: active) {
    .card[aria-selected='true'] {
      border-color: Highlight;
    }
    .card:hover {
      border-color: CanvasText;
    }
    .duration {
      border: 1px solid CanvasText;
    }
  }
`;
