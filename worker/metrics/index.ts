/**
 * What the worker records about itself: `count` anywhere (no I/O), `flushSoon` after an answer, the store
 * (`MetricsObject`), and the views `/admin/metrics` serves (JSON for the console, OpenMetrics for a scraper).
 */
export { METRICS, METRIC_NAMES, type LabelsOf, type MetricName } from './catalog.ts';
export { MetricsObject, RETENTION_HOURS, MAX_POINTS_PER_MINUTE, MAX_SERIES_PER_METRIC } from './metrics-object.ts';
export { openMetricsText, OPENMETRICS_TYPE } from './openmetrics.ts';
export {
  count, countCacheAnswer, countRequest, discardPending, DOORS, flushNow, flushSoon, isRecording, metricsStub, useMetricsConfig,
  type Door,
} from './recording.ts';
export { liveWarnings, MAX_WINDOW_MINUTES, metricsView, sumOf } from './view.ts';
export type { MetricSeries, MetricsView } from '../contract/admin-api.ts';
