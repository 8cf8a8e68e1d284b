import { css } from 'lit';

// Colours come from shared/theme.ts's tokens (light, and dark under prefers-color-scheme). No new `--_` custom
// property here: the embed build renames every one it finds under components/ from one alphabetical table, so a new
// name in the console would change the embed's bytes.
export const consoleStyles = css`
  :host {
    display: block;
    min-block-size: 100vh;
    background: var(--_surface);
    color: var(--_text);
  }
  .top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem 1rem;
    padding: 0.75rem var(--_gap);
    border-block-end: 1px solid var(--_border);
    background: var(--_raised);
  }
  h1 {
    margin: 0;
    font-size: 1.25rem;
  }
  h2 {
    margin: 0 0 0.75rem;
    font-size: 1.375rem;
  }
  h3 {
    margin: 0 0 0.5rem;
    font-size: 1.0625rem;
  }
  h4 {
    margin: 0 0 0.25rem;
    font-size: 1rem;
  }
  .session {
    display: flex;
    align-items: center;
    gap: 0.75rem;
  }
  .muted,
  .hint {
    color: var(--_muted);
  }
  .hint {
    display: block;
    font-size: 0.875rem;
    margin: 0.25rem 0 0;
  }
  nav {
    padding: 0 var(--_gap);
    border-block-end: 1px solid var(--_border);
  }
  [role='tablist'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
  }
  [role='tab'] {
    border: none;
    border-radius: 0;
    border-block-end: 3px solid transparent;
    background: none;
    padding-inline: 0.875rem;
  }
  [role='tab'][aria-selected='true'] {
    border-block-end-color: var(--_accent);
    font-weight: 700;
  }
  main {
    display: block;
    padding: var(--_gap);
    max-inline-size: 80rem;
    margin-inline: auto;
  }
  .sign-in {
    max-inline-size: 28rem;
  }
  .sign-in form {
    display: grid;
    gap: 0.5rem;
    justify-items: start;
  }
  .sign-in input {
    inline-size: 100%;
  }
  input,
  select {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_muted);
    border-radius: var(--_radius);
    padding: 0.4rem 0.6rem;
    min-block-size: 2.5rem;
  }
  input:disabled {
    opacity: 0.6;
  }
  input[type='checkbox'] {
    min-block-size: auto;
    inline-size: 1.125rem;
    block-size: 1.125rem;
    accent-color: var(--_accent);
  }
  label {
    font-weight: 600;
  }
  fieldset label {
    font-weight: normal;
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
    margin-inline-end: 1rem;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    margin: 0;
  }
  legend {
    font-weight: 600;
    padding-inline: 0.25rem;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_surface);
    font-weight: 600;
  }
  button.danger {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_surface);
  }
  form {
    margin-block-end: 1.25rem;
  }
  .fields {
    display: flex;
    flex-wrap: wrap;
    align-items: flex-start;
    gap: 0.75rem 1rem;
    margin-block-end: 0.75rem;
  }
  .field {
    display: grid;
    gap: 0.25rem;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    margin-block-end: 1rem;
  }
  .note {
    margin: 0 0 1rem;
    padding: 0.625rem 0.875rem;
    border: 1px solid var(--_border);
    border-inline-start: 4px solid var(--_accent);
    border-radius: var(--_radius);
    background: var(--_raised);
  }
  .note.error {
    border-inline-start-color: var(--_danger);
  }
  .warnings ul {
    margin: 0 0 1rem;
    padding: 0;
    list-style: none;
    display: grid;
    gap: 0.5rem;
  }
  .warnings li {
    padding: 0.625rem 0.875rem;
    border: 1px solid var(--_danger);
    border-inline-start-width: 6px;
    border-radius: var(--_radius);
    background: var(--_raised);
  }
  .figures {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
    gap: 0.75rem;
    margin: 0 0 1.25rem;
  }
  .figure {
    padding: 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .figure dt {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .figure dd {
    margin: 0.25rem 0 0;
  }
  .big {
    font-size: 1.75rem;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  .of {
    color: var(--_muted);
  }
  .charts {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 30rem), 1fr));
    align-items: start;
    gap: 1rem;
  }
  .card {
    padding: 0.875rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    min-inline-size: 0;
  }
  .card p {
    margin: 0.5rem 0 0;
  }
  .entry p {
    margin: 0;
  }
  .config-section {
    margin-block-end: 1rem;
  }
  .entries {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 18rem), 1fr));
    gap: 0.75rem;
  }
  .entry {
    padding: 0.5rem 0.75rem;
    border-inline-start: 3px solid var(--_border);
  }
  .pairs {
    display: grid;
    grid-template-columns: minmax(8rem, max-content) 1fr;
    gap: 0.25rem 0.75rem;
    margin: 0;
  }
  .pairs > div {
    display: contents;
  }
  .pairs dt {
    color: var(--_muted);
  }
  .pairs dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .values {
    margin: 0;
    padding-inline-start: 1.25rem;
  }
  .origins,
  .removed {
    margin: 0;
    padding-inline-start: 1.25rem;
  }
  .table-wrap {
    overflow-x: auto;
    margin-block-end: 0.75rem;
  }
  table {
    border-collapse: collapse;
    inline-size: 100%;
    font-size: 0.9375rem;
  }
  th,
  td {
    text-align: start;
    vertical-align: top;
    padding: 0.5rem 0.75rem 0.5rem 0;
    border-block-end: 1px solid var(--_border);
  }
  thead th {
    color: var(--_muted);
    font-weight: 600;
  }
  .num {
    font-variant-numeric: tabular-nums;
  }
  .path {
    overflow-wrap: anywhere;
  }
  tr.revoked {
    color: var(--_muted);
  }
  .confirm {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }
  .secret {
    margin-block-end: 1.25rem;
    padding: var(--_gap);
    border: 2px solid var(--_accent);
    border-radius: var(--_radius);
    background: var(--_raised);
  }
  .secret p {
    margin: 0 0 0.75rem;
  }
  .secret-row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-block-end: 0.75rem;
  }
  .secret-row input {
    flex: 1 1 24rem;
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  }
  .pager {
    display: flex;
    gap: 0.5rem;
  }
  .result {
    margin-block-start: 1rem;
  }
  code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.875em;
    overflow-wrap: anywhere;
  }
  @media (forced-colors: active) {
    [role='tab'][aria-selected='true'] {
      border-block-end-color: Highlight;
    }
    button.primary,
    button.danger {
      border-color: ButtonText;
    }
  }
`;
