import { html, LitElement, nothing, svg, type PropertyDeclarations, type SVGTemplateResult } from 'lit';
import { tokens } from '../shared/theme.ts';
import { pageLang } from '../shared/format.ts';
import { formatMinute, formatValue, type Unit } from './format.ts';
import { chartStyles } from './reel-chart.styles.ts';

/** One line, area layer or bar segment: a value per minute (`line`, `area`) or per category (`bar`). */
export interface ChartSeries {
  name: string;
  values: readonly number[];
}

export type ChartType = 'line' | 'area' | 'bar';

const WIDTH = 640;
const TIME_HEIGHT = 200;
const PAD = { left: 56, right: 12, top: 14, bottom: 28 };
const ROW = 28;
const LABEL_WIDTH = 132;
const VALUE_WIDTH = 120;
/** A row's name longer than this is cut short in the drawing (the description and the table have it whole). */
const LABEL_CHARS = 20;
/** Series get a class each (`s0`…), with a colour and, for lines, a dash pattern of their own. */
const SERIES_CLASSES = 6;

/** The round number at or above `value` a scale ends at: 1, 2, 2.5 or 5 times a power of ten. */
export function niceCeil(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const f = value / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * power;
}

const round = (n: number) => Math.round(n * 10) / 10;
const sumOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * A small chart drawn in plain SVG for the operator console: per-minute lines or stacked areas (with an optional
 * horizontal limit line), or horizontal bars by category (stacked when there are several series). What it draws is
 * also text: the SVG's `<title>` and `<desc>` (its accessible name and description) say each series' total, peak and
 * current minute; the legend gives each series' total (`data-series`, `data-total`); and a table under "Numbers"
 * lists them. Bars carry `data-category` and `data-total` too.
 *
 * @tag reel-chart
 * @summary A per-minute or per-category chart in SVG.
 *
 * @csspart svg - The drawing.
 * @csspart legend - The series and their totals.
 */
export class ReelChart extends LitElement {
  static override styles = [tokens, chartStyles];
  static override properties: PropertyDeclarations = {
    label: {},
    type: { reflect: true },
    unit: {},
    series: { attribute: false },
    categories: { attribute: false },
    valueLabels: { attribute: false },
    start: { type: Number },
    step: { type: Number },
    limit: { type: Number },
    limitLabel: { attribute: 'limit-label' },
    max: { type: Number },
  };

  /** What the chart shows (its SVG's title). */
  label = '';
  type: ChartType = 'line';
  unit: Unit = 'count';
  series: readonly ChartSeries[] = [];
  /** `bar`: the rows' names, one per value of each series. */
  categories: readonly string[] = [];
  /** `bar`: the text beside each row instead of its total (e.g. "87 % of 1,234"). */
  valueLabels: readonly string[] | null = null;
  /** Time charts: the first value's minute (epoch seconds) and the seconds between values. */
  start = 0;
  step = 60;
  /** A horizontal line at this value (time charts), e.g. the budget's rate per minute. */
  limit: number | null = null;
  limitLabel = 'limit';
  /** The scale's top; default: the largest value (stacked, for areas and bars), rounded up. */
  max: number | null = null;

  /** The sum of each series' values, in order. */
  get totals(): number[] {
    return this.series.map((s) => sumOf(s.values));
  }

  protected override render() {
    const lang = pageLang(this);
    const bars = this.type === 'bar';
    const summary = bars ? this._barSummary(lang) : this._timeSummary(lang);
    const body = bars ? this._bars(lang) : this._time(lang);
    return html`
      <svg part="svg" viewBox="0 0 ${WIDTH} ${body.height}" role="img" aria-labelledby="title" aria-describedby="desc"
        preserveAspectRatio="xMinYMin meet">
        <title id="title">${this.label}</title>
        <desc id="desc">${summary}</desc>
        ${body.content}
      </svg>
      ${this.series.length > 1 || !bars ? html`
        <ul class="legend" part="legend">
          ${this.series.map((s, i) => html`
            <li data-series=${s.name} data-total=${sumOf(s.values)}>
              <span class="swatch s${i % SERIES_CLASSES}"></span>
              ${s.name}${bars && this.series.length > 1 ? nothing : html`: <strong>${formatValue(sumOf(s.values), this.unit, lang)}</strong>`}
            </li>`)}
          ${this.limit != null && !bars ? html`
            <li class="limit-key" data-limit=${this.limit}>
              <span class="swatch limit"></span>${this.limitLabel}: <strong>${formatValue(this.limit, this.unit, lang)}</strong>
            </li>` : nothing}
        </ul>` : nothing}
      <details>
        <summary>Numbers</summary>
        ${bars ? this._barTable(lang) : this._timeTable(lang)}
      </details>`;
  }

  private _scale(top: number): number {
    return this.max != null && this.max > 0 ? this.max : niceCeil(top);
  }

  private _time(lang: string): { height: number; content: unknown } {
    const n = Math.max(1, ...this.series.map((s) => s.values.length));
    const stacked = this.type === 'area';
    const tops = stacked
      ? Array.from({ length: n }, (_, i) => sumOf(this.series.map((s) => s.values[i] ?? 0)))
      : this.series.flatMap((s) => s.values);
    const max = this._scale(Math.max(0, ...tops, this.limit ?? 0));
    const plotW = WIDTH - PAD.left - PAD.right;
    const plotH = TIME_HEIGHT - PAD.top - PAD.bottom;
    const x = (i: number) => round(PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1)));
    const y = (v: number) => round(PAD.top + plotH - (Math.min(v, max) / max) * plotH);
    const ticks = [0, max / 2, max];
    const minutes = [0, Math.floor((n - 1) / 2), n - 1].filter((m, i, all) => all.indexOf(m) === i);
    const below = new Array<number>(n).fill(0);
    const shapes: SVGTemplateResult[] = this.series.map((s, k) => {
      const cls = `s${k % SERIES_CLASSES}`;
      if (!stacked) {
        const points = Array.from({ length: n }, (_, i) => `${x(i)},${y(s.values[i] ?? 0)}`).join(' ');
        return svg`<polyline class="line ${cls}" points=${points}></polyline>`;
      }
      const lower = [...below];
      for (let i = 0; i < n; i++) below[i]! += s.values[i] ?? 0;
      const upper = Array.from({ length: n }, (_, i) => `${x(i)},${y(below[i]!)}`);
      const back = Array.from({ length: n }, (_, j) => n - 1 - j).map((i) => `${x(i)},${y(lower[i]!)}`);
      return svg`<path class="area ${cls}" d=${`M${upper.join('L')}L${back.join('L')}Z`}></path>
        <polyline class="line ${cls}" points=${upper.join(' ')}></polyline>`;
    });
    const content = svg`
      ${ticks.map((t) => svg`
        <line class="grid" x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y(t)} y2=${y(t)}></line>
        <text class="axis" x=${PAD.left - 6} y=${y(t) + 4} text-anchor="end">${formatValue(t, this.unit, lang)}</text>`)}
      ${minutes.map((m, i) => svg`
        <text class="axis" x=${x(m)} y=${TIME_HEIGHT - 8}
          text-anchor=${minutes.length === 1 ? 'middle' : i === 0 ? 'start' : i === minutes.length - 1 ? 'end' : 'middle'}
          >${formatMinute(this.start + m * this.step, lang)}</text>`)}
      ${shapes}
      ${this.limit != null ? svg`
        <line class="limit" x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y(this.limit)} y2=${y(this.limit)}></line>
        <text class="limit-text" x=${WIDTH - PAD.right} y=${y(this.limit) - 5} text-anchor="end"
          >${this.limitLabel} ${formatValue(this.limit, this.unit, lang)}</text>` : nothing}`;
    return { height: TIME_HEIGHT, content };
  }

  private _bars(lang: string): { height: number; content: unknown } {
    const rows = this.categories;
    if (rows.length === 0) {
      return { height: ROW + 8, content: svg`<text class="axis" x="0" y="22">No data in this window.</text>` };
    }
    const rowTotals = rows.map((_, j) => sumOf(this.series.map((s) => s.values[j] ?? 0)));
    const max = this._scale(Math.max(0, ...rowTotals));
    const barW = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
    const content = rows.map((name, j) => {
      let at = LABEL_WIDTH;
      const top = 4 + j * ROW;
      const segments = this.series.map((s, k) => {
        const width = round((Math.min(s.values[j] ?? 0, max) / max) * barW);
        const rect = svg`<rect class="bar s${k % SERIES_CLASSES}" x=${round(at)} y=${top + 4} width=${width} height=${ROW - 10}
          data-series=${s.name} data-value=${s.values[j] ?? 0}></rect>`;
        at += width;
        return rect;
      });
      return svg`
        <g class="row" data-category=${name} data-total=${rowTotals[j]!}>
          <text class="label" x=${LABEL_WIDTH - 8} y=${top + 18} text-anchor="end"
            >${name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name}</text>
          <rect class="track" x=${LABEL_WIDTH} y=${top + 4} width=${barW} height=${ROW - 10}></rect>
          ${segments}
          <text class="value" x=${LABEL_WIDTH + barW + 8} y=${top + 18}
            >${this.valueLabels?.[j] ?? formatValue(rowTotals[j]!, this.unit, lang)}</text>
        </g>`;
    });
    return { height: rows.length * ROW + 8, content };
  }

  private _timeSummary(lang: string): string {
    const n = Math.max(0, ...this.series.map((s) => s.values.length));
    const f = (v: number) => formatValue(v, this.unit, lang);
    const parts = [`${this.label}, ${n} ${n === 1 ? 'minute' : 'minutes'}` +
      (n > 0 ? ` from ${formatMinute(this.start, lang)} to ${formatMinute(this.start + (n - 1) * this.step, lang)}.` : '.')];
    for (const s of this.series) {
      parts.push(`${s.name}: ${f(sumOf(s.values))} in total, at most ${f(Math.max(0, ...s.values))} a minute, ` +
        `${f(s.values.at(-1) ?? 0)} in the current minute.`);
    }
    if (this.limit != null) parts.push(`${this.limitLabel}: ${f(this.limit)} a minute.`);
    return parts.join(' ');
  }

  private _barSummary(lang: string): string {
    if (this.categories.length === 0) return `${this.label}: no data in this window.`;
    const f = (v: number) => formatValue(v, this.unit, lang);
    return `${this.label}. ` + this.categories.map((name, j) => {
      const detail = this.series.length > 1
        ? this.series.map((s) => `${s.name} ${f(s.values[j] ?? 0)}`).join(', ')
        : this.valueLabels?.[j] ?? f(this.series[0]?.values[j] ?? 0);
      return `${name}: ${detail}`;
    }).join('; ') + '.';
  }

  private _timeTable(lang: string) {
    const f = (v: number) => formatValue(v, this.unit, lang);
    return html`
      <table>
        <thead><tr><th scope="col">Series</th><th scope="col">Total</th><th scope="col">Peak a minute</th>
          <th scope="col">Current minute</th></tr></thead>
        <tbody>
          ${this.series.map((s) => html`<tr>
            <th scope="row">${s.name}</th><td>${f(sumOf(s.values))}</td><td>${f(Math.max(0, ...s.values))}</td>
            <td>${f(s.values.at(-1) ?? 0)}</td></tr>`)}
        </tbody>
      </table>`;
  }

  private _barTable(lang: string) {
    const f = (v: number) => formatValue(v, this.unit, lang);
    const several = this.series.length > 1;
    return html`
      <table>
        <thead><tr><th scope="col">Name</th>
          ${several ? this.series.map((s) => html`<th scope="col">${s.name}</th>`) : nothing}
          <th scope="col">${several ? 'Total' : 'Value'}</th></tr></thead>
        <tbody>
          ${this.categories.map((name, j) => html`<tr><th scope="row">${name}</th>
            ${several ? this.series.map((s) => html`<td>${f(s.values[j] ?? 0)}</td>`) : nothing}
            <td>${this.valueLabels?.[j] ?? f(sumOf(this.series.map((s) => s.values[j] ?? 0)))}</td></tr>`)}
        </tbody>
      </table>`;
  }
}
