/**
 * What `/admin/metrics` answers, read from the metrics object: the JSON the console draws (points per minute of the
 * window asked for, sparse, with each series' total over it) and the health the configuration view warns about.
 */
import type { Config } from '../config.ts';
import type { MetricSeries, MetricsView } from '../contract/admin-api.ts';
import type { Env } from '../env.ts';
import { labelsOf, minuteOf, type MetricName } from './catalog.ts';
import { RETENTION_HOURS } from './metrics-object.ts';
import { flushNow, metricsStub } from './recording.ts';

export const MAX_WINDOW_MINUTES = 1440;

export async function metricsView(env: Env, config: Config, minutes: number): Promise<MetricsView> {
  await flushNow(env);
  const now = Date.now();
  const to = minuteOf(now);
  const from = to - (minutes - 1) * 60;
  const points = await metricsStub(env).read(from, to);
  const series = new Map<string, MetricSeries>();
  for (const point of points) {
    const id = `${point.metric}\u0000${point.labels}`;
    let view = series.get(id);
    if (!view) {
      view = { metric: point.metric, labels: labelsOf(point.metric, point.labels), points: [], total: 0 };
      series.set(id, view);
    }
    view.points.push([point.minute, point.value]);
    view.total += point.value;
  }
  const { budget } = config;
  return {
    generated_at: new Date(now).toISOString(),
    from,
    to,
    step_seconds: 60,
    retention_hours: RETENTION_HOURS,
    budget: {
      rate_per_minute: budget.ratePerMinute, burst: budget.burst, geo_rate_per_minute: budget.geoRatePerMinute,
      public_floor: budget.publicFloor, gateway_floor: budget.gatewayFloor,
    },
    series: [...series.values()],
  };
}

/** Sum of a metric over a view, for the series whose labels match `where`. */
export function sumOf(view: MetricsView, metric: MetricName, where: Record<string, string> = {}): number {
  return view.series
    .filter((s) => s.metric === metric && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.total, 0);
}

/** Warnings the last five minutes call for: the Geo API failing, the budget saturated. */
export async function liveWarnings(env: Env, config: Config): Promise<Array<{ code: string; description: string }>> {
  const view = await metricsView(env, config, 5);
  const warnings: Array<{ code: string; description: string }> = [];
  const geoCalls = sumOf(view, 'upstream_calls', { api: 'geo' });
  const geoFailures = sumOf(view, 'upstream_errors', { api: 'geo' }) + sumOf(view, 'upstream_throttled', { api: 'geo' });
  // One failure in ten is already visitors decided by the unknown rule that the Geo API would have placed.
  if (geoFailures > 0 && geoFailures * 10 >= geoCalls) {
    warnings.push({
      code: 'geo_api_failing',
      description: `The Geo API failed ${geoFailures} of ${geoCalls} lookups in the last 5 minutes: each policy's unknown rule is deciding for those visitors.`,
    });
  }
  const refusals = sumOf(view, 'budget_refusals');
  const lastMinute = view.series.filter((s) => s.metric === 'upstream_calls' && s.labels.api === 'v2')
    .reduce((sum, s) => sum + s.points.filter(([m]) => m === view.to - 60).reduce((a, [, v]) => a + v, 0), 0);
  if (refusals > 0 || lastMinute >= config.budget.ratePerMinute * 0.9) {
    warnings.push({
      code: 'budget_saturated',
      description: `The upstream budget is saturated: ${refusals} call(s) refused in the last 5 minutes, ${lastMinute} of ${config.budget.ratePerMinute} calls spent in the last full minute.`,
    });
  }
  return warnings;
}
