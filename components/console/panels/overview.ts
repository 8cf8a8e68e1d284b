/**
 * The overview: the current minute's figures, then what the worker did per minute over the window (1, 6 or 24 hours)
 * as charts (`<reel-chart>`), each carrying its numbers as text (`data-metric` on the chart, `data-total` on its
 * series and bars, `data-value` on the figures).
 */
import { html, nothing } from 'lit';
import type { Metrics } from '../client.ts';
import { formatBytes, formatMinute, formatMoment } from '../format.ts';
import { formatNumber } from '../../shared/format.ts';
import {
  CACHE_KINDS, current, hitRatio, labelValues, perMinute, select, sum, totalsBy, type LabelFilter,
} from '../metrics.ts';
import type { ChartSeries } from '../reel-chart.ts';
import { errorNote, type ConsoleView } from '../view.ts';

export const WINDOWS = [
  { minutes: 60, label: 'Last hour' },
  { minutes: 360, label: 'Last 6 hours' },
  { minutes: 1440, label: 'Last 24 hours' },
] as const;

const SIDES = ['public', 'gateway'];
const DOORS = ['api', 'playback', 'embed', 'page', 'v2', 'v1', 'admin'];
const CLASSES = ['2xx', '3xx', '4xx', '5xx'];
const TOP_COUNTRIES = 10;

interface OverviewState {
  error: unknown;
  onWindow: (minutes: number) => void;
}

function line(m: Metrics, name: string, metric: string, filter: LabelFilter = {}): ChartSeries {
  return { name, values: perMinute(m, select(m, metric, filter)) };
}

function figure(metric: string, label: string, value: number, shown: string, extra: unknown = nothing) {
  return html`
    <div class="figure" data-metric=${metric} data-value=${value}>
      <dt>${label}</dt>
      <dd><span class="big">${shown}</span>${extra}</dd>
    </div>`;
}

function chart(id: string, title: string, metric: string, content: unknown) {
  return html`
    <div class="card" data-chart=${metric}>
      <h3 id=${`chart-${id}`}>${title}</h3>
      ${content}
    </div>`;
}

export function renderOverview(view: ConsoleView, { error, onWindow }: OverviewState) {
  const m = view.metrics;
  const lang = view.language;
  const n = (value: number) => formatNumber(value, lang);
  const windowSelect = html`
    <div class="toolbar">
      <label for="window">Window</label>
      <select id="window" @change=${(e: Event) => onWindow(Number((e.target as HTMLSelectElement).value))}>
        ${WINDOWS.map((w) => html`<option value=${w.minutes} ?selected=${w.minutes === view.minutes}>${w.label}</option>`)}
      </select>
      ${m ? html`<span class="muted" data-generated=${m.generated_at}>Updated ${formatMoment(m.generated_at, lang)}</span>`
        : nothing}
    </div>`;
  if (!m) {
    return html`<h2>Overview</h2>${windowSelect}${errorNote(error)}
      ${error ? nothing : html`<p class="muted" role="status">Loading the metrics…</p>`}`;
  }
  const budget = m.budget;
  const start = m.from;
  const step = m.step_seconds || 60;
  const time = (type: 'line' | 'area', label: string, series: ChartSeries[], more: { limit?: number; limitLabel?: string; unit?: string } = {}) => html`
    <reel-chart type=${type} label=${label} unit=${more.unit ?? 'count'} .series=${series} .start=${start} .step=${step}
      .limit=${more.limit ?? null} limit-label=${more.limitLabel ?? 'limit'}></reel-chart>`;
  const bars = (label: string, categories: string[], series: ChartSeries[], more: { unit?: string; max?: number; valueLabels?: string[] } = {}) => html`
    <reel-chart type="bar" label=${label} unit=${more.unit ?? 'count'} .categories=${categories} .series=${series}
      .max=${more.max ?? null} .valueLabels=${more.valueLabels ?? null}></reel-chart>`;

  const v2Now = current(m, 'upstream_calls', { api: 'v2' });
  const cacheKinds = CACHE_KINDS.map((kind) => ({ kind, ...hitRatio(m, kind) }));
  const policies = labelValues(m, 'geo_decisions', 'policy');
  const policyValue = (filter: LabelFilter) => policies.map((policy) => sum(m, 'geo_decisions', { ...filter, policy }));
  const countries = totalsBy(m, 'geo_refusals_by_country', 'country').slice(0, TOP_COUNTRIES);
  const doors = labelValues(m, 'requests', 'door', DOORS);

  return html`
    <h2>Overview</h2>
    ${windowSelect}
    ${errorNote(error)}
    <h3 class="visually-hidden">This minute, since ${formatMinute(m.to, lang)}</h3>
    <dl class="figures">
      ${figure('upstream_calls', 'Platform API calls this minute', v2Now, n(v2Now),
        html` <span class="of" data-limit=${budget.rate_per_minute}>of ${n(budget.rate_per_minute)}</span>`)}
      ${figure('requests', 'Requests this minute', current(m, 'requests'), n(current(m, 'requests')))}
      ${figure('budget_refusals', 'Refused for want of budget', current(m, 'budget_refusals'), n(current(m, 'budget_refusals')))}
      ${figure('geo_refusals', 'Geo refusals this minute', current(m, 'geo_decisions', { decision: 'refused' }),
        n(current(m, 'geo_decisions', { decision: 'refused' })))}
      ${figure('gateway_calls', 'Gateway calls this minute', current(m, 'gateway_calls'), n(current(m, 'gateway_calls')))}
      ${figure('playback_bytes', 'Played this minute', current(m, 'playback_bytes'),
        formatBytes(current(m, 'playback_bytes'), lang))}
    </dl>
    <div class="charts">
      ${chart('calls', 'Platform API calls per minute', 'upstream_calls',
        time('area', 'Management API calls per minute by side', SIDES.map((side) => line(m, side, 'upstream_calls', { side, api: 'v2' })),
          { limit: budget.rate_per_minute, limitLabel: 'budget' }))}
      ${chart('geo-calls', 'Geo API calls per minute', 'upstream_calls_geo',
        time('area', 'Geo API calls per minute by side', SIDES.map((side) => line(m, side, 'upstream_calls', { side, api: 'geo' })),
          { limit: budget.geo_rate_per_minute, limitLabel: 'geo budget' }))}
      ${chart('budget', 'Waits and refusals per minute', 'budget',
        time('line', 'Calls that waited for a slot, and calls refused for want of one, per minute',
          [line(m, 'waits', 'budget_waits'), line(m, 'refusals', 'budget_refusals')]))}
      ${chart('upstream-errors', 'Platform errors per minute', 'upstream_errors',
        time('line', 'Platform errors (5xx and timeouts) and 429s per minute',
          [line(m, 'errors', 'upstream_errors'), line(m, '429s', 'upstream_throttled')]))}
      ${chart('cache', 'Cache hit ratio', 'cache',
        bars('Share of lookups served from the cache (HIT, STALE, REVALIDATED) by kind',
          cacheKinds.map((c) => c.kind), [{ name: 'served from the cache', values: cacheKinds.map((c) => c.ratio ?? 0) }],
          { unit: 'percent', max: 1, valueLabels: cacheKinds.map((c) => (c.ratio == null ? 'no lookups'
            : `${formatNumber(c.ratio, lang, { style: 'percent', maximumFractionDigits: 1 })} of ${n(c.all)}`)) }))}
      ${chart('geo', 'Geo decisions by policy', 'geo_decisions',
        bars('Geo decisions by policy', policies, [
          { name: 'allowed', values: policyValue({ decision: 'allowed', by: 'rule' }) },
          { name: 'refused', values: policyValue({ decision: 'refused', by: 'rule' }) },
          { name: 'location unknown', values: policyValue({ by: 'unknown' }) },
        ]))}
      ${chart('countries', 'Geo refusals by country', 'geo_refusals_by_country',
        bars(`Geo refusals by country, top ${TOP_COUNTRIES}`, countries.map(([c]) => c),
          [{ name: 'refusals', values: countries.map(([, v]) => v) }]))}
      ${chart('playback', 'Playback bytes per minute', 'playback_bytes',
        html`${time('area', 'Playback bytes per minute', [line(m, 'bytes', 'playback_bytes')], { unit: 'bytes' })}
          <p class="muted">${n(sum(m, 'playback_requests'))} playback requests, ${n(sum(m, 'playback_refusals'))} refused,
            ${formatBytes(sum(m, 'playback_bytes'), lang)} in the window.</p>`)}
      ${chart('requests', 'Requests by door and status', 'requests',
        bars('Requests by door and status class', doors,
          CLASSES.map((cls) => ({ name: cls, values: doors.map((door) => sum(m, 'requests', { door, class: cls })) }))))}
    </div>`;
}
