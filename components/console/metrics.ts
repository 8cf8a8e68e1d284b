/**
 * What the overview shows, read from `GET /admin/metrics` (sparse per-minute series with labels): per-minute values
 * laid out densely over the window, sums by a label, the current minute, ratios. Pure functions, no DOM.
 */
import type { Metrics, MetricSeries } from './client.ts';

/** Label values a series must have (a missing name matches anything). */
export type LabelFilter = Record<string, string | readonly string[]>;

function matches(series: MetricSeries, metric: string, filter: LabelFilter): boolean {
  if (series.metric !== metric) return false;
  return Object.entries(filter).every(([name, want]) => {
    const value = series.labels[name] ?? '';
    return typeof want === 'string' ? value === want : want.includes(value);
  });
}

export function select(metrics: Metrics, metric: string, filter: LabelFilter = {}): MetricSeries[] {
  return metrics.series.filter((s) => matches(s, metric, filter));
}

/** Minutes in the window, `from` to `to` inclusive. */
export function minuteCount(metrics: Metrics): number {
  const step = metrics.step_seconds || 60;
  return Math.max(1, Math.floor((metrics.to - metrics.from) / step) + 1);
}

/** One value per minute of the window (0 where the series has no point), summed over `series`. */
export function perMinute(metrics: Metrics, series: readonly MetricSeries[]): number[] {
  const step = metrics.step_seconds || 60;
  const values = new Array<number>(minuteCount(metrics)).fill(0);
  for (const s of series) {
    for (const [at, value] of s.points) {
      const i = Math.round((at - metrics.from) / step);
      if (i >= 0 && i < values.length) values[i]! += value;
    }
  }
  return values;
}

export function total(series: readonly MetricSeries[]): number {
  return series.reduce((sum, s) => sum + (Number.isFinite(s.total) ? s.total : 0), 0);
}

/** The sum over the window of a metric's series matching `filter`. */
export function sum(metrics: Metrics, metric: string, filter: LabelFilter = {}): number {
  return total(select(metrics, metric, filter));
}

/** The value in the current minute (`to`) of a metric's series matching `filter`. */
export function current(metrics: Metrics, metric: string, filter: LabelFilter = {}): number {
  let value = 0;
  for (const s of select(metrics, metric, filter)) {
    for (const [at, v] of s.points) if (at === metrics.to) value += v;
  }
  return value;
}

/** The sums over the window by the values of one label, largest first. */
export function totalsBy(metrics: Metrics, metric: string, label: string, filter: LabelFilter = {}): Array<[string, number]> {
  const sums = new Map<string, number>();
  for (const s of select(metrics, metric, filter)) {
    const key = s.labels[label] ?? '';
    sums.set(key, (sums.get(key) ?? 0) + (Number.isFinite(s.total) ? s.total : 0));
  }
  return [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The label values a metric has in the window, in `preferred` order first, then alphabetically. */
export function labelValues(metrics: Metrics, metric: string, label: string, preferred: readonly string[] = []): string[] {
  const seen = new Set(select(metrics, metric).map((s) => s.labels[label] ?? ''));
  return [...preferred.filter((v) => seen.has(v)), ...[...seen].filter((v) => !preferred.includes(v)).sort()];
}

/** The cache states that served from the cache (a MISS went to the platform). */
export const CACHE_SERVED = ['HIT', 'STALE', 'REVALIDATED'] as const;
export const CACHE_KINDS = ['feed', 'media', 'player', 'geo'] as const;

/** Served from the cache over all lookups of a kind, in the window: `{ ratio (null: no lookups), served, all }`. */
export function hitRatio(metrics: Metrics, kind: string): { ratio: number | null; served: number; all: number } {
  const all = sum(metrics, 'cache', { kind });
  const served = sum(metrics, 'cache', { kind, state: CACHE_SERVED });
  return { ratio: all > 0 ? served / all : null, served, all };
}
