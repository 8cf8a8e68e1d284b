/**
 * Every figure the worker records about itself, with its labels and what it means. One table serves the recorder (the
 * label order of a series), the metrics object (its caps), `/admin/metrics` (JSON and OpenMetrics) and
 * worker/docs/operating.md, "Metrics".
 * Counters all: each is a count per minute, summed into a total since the store began.
 */
export const METRICS = {
  requests: { labels: ['door', 'class'], help: 'Requests answered, by front door (api, playback, embed, page, v2, v1, admin) and status class.' },
  cache: { labels: ['kind', 'state'], help: 'Cached answers by kind and state: HIT (fresh), STALE (served while refreshed), MISS (loaded), REVALIDATED (a stale entry refreshed in the background).' },
  upstream_calls: { labels: ['side', 'api'], help: 'Requests sent to the platform (v2: Management API, geo: Geo Location API), by budget side.' },
  budget_waits: { labels: ['side'], help: 'Upstream calls that waited for a slot in the budget.' },
  budget_refusals: { labels: ['side'], help: 'Calls and loads refused for want of a slot: each is a 429 to its caller (or a stale answer).' },
  upstream_errors: { labels: ['api', 'kind'], help: 'Platform failures: kind status (a 5xx answer) or transport (timeout, network).' },
  delivery_calls: { labels: ['kind', 'outcome'], help: 'Delivery API calls (kind: media, playlist) by outcome: ok, not_found, refused (403: the site\'s signing), invalid (an answer out of shape), error (5xx, 429, transport), busy (the worker\'s own bound).' },
  upstream_throttled: { labels: ['api'], help: '429 answers the platform sent.' },
  geo_decisions: { labels: ['policy', 'decision', 'by'], help: 'Visitors decided by a geo policy (once per policy per request): allowed or refused, by its rules or by its unknown rule.' },
  geo_refusals_by_country: { labels: ['country'], help: 'Refused visitors by country (ISO alpha-2; unknown when not known).' },
  playback_requests: { labels: [], help: 'Playback byte requests answered with bytes.' },
  playback_bytes: { labels: [], help: 'Playback bytes served (the answers\' lengths).', unit: 'bytes' },
  playback_refusals: { labels: ['code'], help: 'Playback requests refused, by error code.' },
  foreign_delivery_files: { labels: ['site', 'at'], help: 'Media answers refused for naming a delivery-host file that is not their own (at: answer, signing, playback).' },
  gateway_calls: { labels: ['key'], help: 'Gateway calls (/v2, /v1) per access key.' },
  gateway_errors: { labels: ['key'], help: 'Gateway calls answered with an error status (4xx, 5xx) per access key.' },
  gateway_replays: { labels: ['key'], help: 'Gateway writes answered from a stored outcome (Idempotency-Key) per access key.' },
  metrics_dropped: { labels: [], help: 'Counts an isolate dropped because its pending batch was full (the metrics object was unreachable for long).' },
} as const satisfies Record<string, { labels: readonly string[]; help: string; unit?: string }>;

export type MetricName = keyof typeof METRICS;
/** The labels of a metric, each a string. */
export type LabelsOf<M extends MetricName> = { [L in (typeof METRICS)[M]['labels'][number]]: string };

export const METRIC_NAMES = Object.keys(METRICS) as MetricName[];

export function isMetricName(name: string): name is MetricName {
  return Object.hasOwn(METRICS, name);
}

/** A label value as stored: printable, at most 64 characters (a label never carries more than an id or a code). */
export function labelValue(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 64);
}

/** A series' labels in catalog order, as one canonical JSON text (the recorder's and the store's identity). */
export function labelsKey<M extends MetricName>(metric: M, labels: LabelsOf<M>): string {
  const names = METRICS[metric].labels as readonly string[];
  return JSON.stringify(names.map((name) => labelValue((labels as Record<string, string>)[name] ?? '')));
}

/** The labels a canonical key stands for. */
export function labelsOf(metric: MetricName, key: string): Record<string, string> {
  const names = METRICS[metric].labels as readonly string[];
  const values = JSON.parse(key) as string[];
  return Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
}

/** Minutes as the store keeps them: the epoch second each minute starts at. */
export function minuteOf(ms: number): number {
  return Math.floor(ms / 60_000) * 60;
}
