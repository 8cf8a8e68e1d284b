/**
 * The OpenMetrics text exposition of the store's totals (https://openmetrics.io): one counter family per metric of
 * the catalog (`reelgate_<metric>`, samples `_total`), and the budget's configured rates as gauges, so a Prometheus or
 * Grafana Agent scraping `/admin/metrics` with the admin token sees the same figures as the console.
 */
import type { Config } from '../config.ts';
import { labelsOf, METRIC_NAMES, METRICS } from './catalog.ts';
import type { StoredTotal } from './metrics-object.ts';

export const OPENMETRICS_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const number = (value: number) => (Number.isInteger(value) ? String(value) : value.toPrecision(15).replace(/\.?0+$/, ''));

export function openMetricsText(totals: readonly StoredTotal[], config: Config): string {
  const lines: string[] = [];
  for (const metric of METRIC_NAMES) {
    const family = `reelgate_${metric}`;
    const spec = METRICS[metric] as { labels: readonly string[]; help: string; unit?: string };
    lines.push(`# TYPE ${family} counter`);
    if (spec.unit) lines.push(`# UNIT ${family} ${spec.unit}`);
    lines.push(`# HELP ${family} ${escapeHelp(spec.help)}`);
    const series = totals.filter((t) => t.metric === metric);
    if (series.length === 0 && spec.labels.length === 0) lines.push(`${family}_total 0`);
    for (const { labels, total } of series) {
      const pairs = Object.entries(labelsOf(metric, labels)).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
      lines.push(`${family}_total${pairs.length ? `{${pairs.join(',')}}` : ''} ${number(total)}`);
    }
  }
  const gauges: Array<[string, string, number]> = [
    ['budget_rate_per_minute', 'Management API calls a minute the budget allows, all isolates together.', config.budget.ratePerMinute],
    ['budget_burst', 'Management API calls the budget allows at once.', config.budget.burst],
    ['budget_geo_rate_per_minute', 'Geo Location API calls a minute the budget allows.', config.budget.geoRatePerMinute],
  ];
  for (const [name, help, value] of gauges) {
    lines.push(`# TYPE reelgate_${name} gauge`, `# HELP reelgate_${name} ${escapeHelp(help)}`, `reelgate_${name} ${number(value)}`);
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}
