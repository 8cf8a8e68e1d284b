/**
 * What the worker's /admin API answers and the operator console (components/console/) reads: one declaration of each
 * shape for both sides, as public-api.ts is for the public API. Types only.
 */

/** `GET /admin/keys`: an access key as listed, never its token. */
export interface AccessKey {
  id: string;
  name: string;
  scopes: string[];
  /** Site ids, or `['*']`. */
  sites: string[];
  created_at: string;
  revoked_at: string | null;
}

/** One row of the audit trail of writes (`GET /admin/audit`): ids and routes, never bodies or keys. */
export interface AuditEntry {
  id: number;
  at: string;
  key_id: string;
  method: string;
  route: string;
  path: string;
  site: string | null;
  status: number;
  idempotency_key: string | null;
  replayed: boolean;
}

/** `GET /admin/audit`: a page, newest first; `next_cursor` asks for the next one. */
export interface AuditPage {
  entries: AuditEntry[];
  next_cursor: string | null;
}

/** A warning of `GET /admin/config` (the configuration as parsed, and what the last minutes call for). */
export interface ConfigWarning {
  code: string;
  description: string;
}

/** One series of `GET /admin/metrics`. */
export interface MetricSeries {
  metric: string;
  labels: Record<string, string>;
  /** `[minute epoch seconds, value]`, sparse: minutes with no count are left out. */
  points: Array<[number, number]>;
  /** Over the window asked for. */
  total: number;
}

/** The upstream budget as configured, beside the metrics it bounds. */
export interface BudgetFigures {
  rate_per_minute: number;
  burst: number;
  geo_rate_per_minute: number;
  public_floor: number;
  gateway_floor: number;
}

/** `GET /admin/metrics?minutes=N`. */
export interface MetricsView {
  generated_at: string;
  /** Epoch seconds of the first minute shown. */
  from: number;
  /** Epoch seconds of the start of the current minute. */
  to: number;
  step_seconds: number;
  retention_hours: number;
  budget: BudgetFigures;
  series: MetricSeries[];
}
