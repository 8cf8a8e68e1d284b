/**
 * Theme tokens every element shares. Defaults sit on `:host`, so a page overrides them with any selector of its own
 * (`reel-playlist { --reel-accent: rebeccapurple }`); dark values apply under `prefers-color-scheme: dark`.
 */
import { css } from 'lit';

export const tokens = css`
  :host {
    --_font: var(--reel-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_text: var(--reel-color-text, #14181f);
    --_muted: var(--reel-color-muted, #556070);
    --_surface: var(--reel-color-surface, #fff);
    --_raised: var(--reel-color-surface-raised, #f1f3f6);
    --_border: var(--reel-color-border, #d5dae1);
    --_accent: var(--reel-color-accent, #0b5fd6);
    --_danger: var(--reel-color-danger, #b42318);
    --_focus: var(--reel-color-focus, #0b5fd6);
    --_skeleton: var(--reel-color-skeleton, #e3e7ec);
    --_radius: var(--reel-radius, 0.5rem);
    --_gap: var(--reel-gap, 1rem);
    font-family: var(--_font);
    color: var(--_text);
    line-height: 1.4;
  }
  /* In a right-to-left language (the element's, or the page's it inherits: Arabic, Persian, Hebrew, Urdu), right to
     left, unless the page gave the element a dir of its own (as a page in another such language does): the layout
     mirrors through logical properties. */
  :host(:is(:lang(ar), :lang(fa), :lang(he), :lang(ur)):not([dir])) {
    direction: rtl;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_text: var(--reel-color-text, #e8ebf0);
      --_muted: var(--reel-color-muted, #a3adbb);
      --_surface: var(--reel-color-surface, #14181f);
      --_raised: var(--reel-color-surface-raised, #1f2530);
      --_border: var(--reel-color-border, #394252);
      --_accent: var(--reel-color-accent, #6ea8ff);
      --_danger: var(--reel-color-danger, #ff8a80);
      --_focus: var(--reel-color-focus, #6ea8ff);
      --_skeleton: var(--reel-color-skeleton, #2a313d);
    }
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  ::before,
  ::after {
    box-sizing: border-box;
  }
  .visually-hidden {
    position: absolute !important;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: var(--_radius);
    border: 1px solid var(--_border);
    background: var(--_raised);
    color: var(--_text);
    padding-block: 0.5rem;
    padding-inline: 1rem;
    min-block-size: 2.5rem;
  }
  button:hover:not(:disabled) {
    border-color: var(--_accent);
  }
  button:disabled {
    cursor: progress;
    opacity: 0.7;
  }
  .message {
    display: grid;
    gap: 0.75rem;
    justify-items: start;
    padding: var(--_gap);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_raised);
    color: var(--_text);
  }
  .message.error {
    border-inline-start: 4px solid var(--_danger);
  }
  .message p {
    margin: 0;
  }
  @keyframes reel-pulse {
    50% {
      opacity: 0.55;
    }
  }
  .skeleton {
    background: var(--_skeleton);
    border-radius: var(--_radius);
    animation: reel-pulse 1.6s ease-in-out infinite;
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton {
      animation: none;
    }
  }
  @media (forced-colors: active) {
    :focus-visible {
      outline-color: Highlight;
    }
    .skeleton {
      background: GrayText;
      forced-color-adjust: none;
    }
    button {
      border-color: ButtonText;
    }
  }
`;
