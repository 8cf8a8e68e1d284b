import { css } from 'lit';

// The series' colours go through `--series`, set per series class. (Not an `--_` name: the embed build renames every
// `--_` property it finds under components/ in one alphabetical table, so a new one here would change the embed.)
export const chartStyles = css`
  :host {
    display: block;
  }
  svg {
    display: block;
    inline-size: 100%;
    block-size: auto;
    overflow: visible;
    font-size: 12px;
  }
  .s0 {
    --series: #0b5fd6;
  }
  .s1 {
    --series: #a8560a;
  }
  .s2 {
    --series: #1a7f37;
  }
  .s3 {
    --series: #b42318;
  }
  .s4 {
    --series: #6e40c9;
  }
  .s5 {
    --series: #5b6472;
  }
  @media (prefers-color-scheme: dark) {
    .s0 {
      --series: #6ea8ff;
    }
    .s1 {
      --series: #f0a35e;
    }
    .s2 {
      --series: #56d364;
    }
    .s3 {
      --series: #ff8a80;
    }
    .s4 {
      --series: #c297ff;
    }
    .s5 {
      --series: #a3adbb;
    }
  }
  .grid {
    stroke: var(--_border);
    stroke-width: 1;
  }
  .axis,
  .label,
  .value {
    fill: var(--_muted);
  }
  .label,
  .value {
    fill: var(--_text);
  }
  .line {
    fill: none;
    stroke: var(--series);
    stroke-width: 2;
    stroke-linejoin: round;
    vector-effect: non-scaling-stroke;
  }
  .line.s1 {
    stroke-dasharray: 6 3;
  }
  .line.s2 {
    stroke-dasharray: 2 3;
  }
  .line.s3 {
    stroke-dasharray: 10 3 2 3;
  }
  .area {
    fill: var(--series);
    fill-opacity: 0.3;
    stroke: none;
  }
  .area ~ .line {
    stroke-dasharray: none;
  }
  .bar {
    fill: var(--series);
  }
  .track {
    fill: var(--_raised);
  }
  .limit {
    stroke: var(--_danger);
    stroke-width: 2;
    stroke-dasharray: 8 4;
  }
  .limit-text {
    fill: var(--_danger);
    font-weight: 600;
  }
  .legend {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    margin: 0.5rem 0 0;
    padding: 0;
    list-style: none;
    font-size: 0.875rem;
  }
  .legend li {
    display: flex;
    align-items: center;
    gap: 0.375rem;
  }
  .swatch {
    display: inline-block;
    inline-size: 0.875rem;
    block-size: 0.875rem;
    border-radius: 2px;
    background: var(--series);
  }
  .swatch.limit {
    block-size: 0;
    border-block-start: 2px dashed var(--_danger);
    border-radius: 0;
  }
  details {
    margin-block-start: 0.5rem;
    font-size: 0.875rem;
  }
  summary {
    cursor: pointer;
    color: var(--_muted);
  }
  table {
    border-collapse: collapse;
    margin-block-start: 0.5rem;
  }
  th,
  td {
    text-align: start;
    padding: 0.25rem 0.75rem 0.25rem 0;
    border-block-end: 1px solid var(--_border);
  }
  td {
    font-variant-numeric: tabular-nums;
  }
  @media (forced-colors: active) {
    .line,
    .limit {
      stroke: CanvasText;
    }
    .bar,
    .area,
    .swatch {
      fill: CanvasText;
      background: CanvasText;
      forced-color-adjust: none;
    }
  }
`;
