/**
 * The metrics store: one Durable Object with SQLite, which every isolate (and the budget object) sends its batches to.
 * Per minute per series, kept `RETENTION_HOURS`; a total per series since the store began (OpenMetrics counters must
 * never go down, so they are not the sum of what the window still holds).
 *
 * Bounded whatever arrives: a metric holds at most `MAX_SERIES_PER_METRIC` label sets (beyond, counts go to its
 * `other` series), a minute at most `MAX_POINTS_PER_MINUTE` points (likewise), and minutes older than the retention are
 * deleted as each new minute begins. At most 1,500 minutes × 600 points of about 30 bytes: some 30 MB, and in practice
 * a few hundred points a minute.
 *
 * Why a Durable Object and not Workers Analytics Engine: the console and `/admin/metrics` read the figures back from
 * the worker itself, which Analytics Engine allows only through its SQL API with an account token (a secret the worker
 * would have to hold for nothing else), and it does not run under `wrangler dev`; one SQLite object does both, the
 * same in `npm start` as deployed, and sees one flush every few seconds per isolate, far below its limits.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import { isMetricName, METRICS, minuteOf, type MetricName } from './catalog.ts';
import type { Count } from './tally.ts';

export const RETENTION_HOURS = 25;
export const MAX_SERIES_PER_METRIC = 300;
export const MAX_POINTS_PER_MINUTE = 600;
/** A batch may name minutes this far ahead of the object's clock (isolates' clocks differ a little). */
const FUTURE_SLACK_SECONDS = 120;

export interface StoredPoint { metric: MetricName; labels: string; minute: number; value: number }
export interface StoredTotal { metric: MetricName; labels: string; total: number; created: number }
export interface StoreUsage { points: number; series: number; bytes: number; oldestMinute: number | null }

export class MetricsObject extends DurableObject<Env> {
  /** The object's time. Tests replace it (runInDurableObject) to step through a day without waiting. */
  private clock: () => number = () => Date.now();
  private readonly sql: SqlStorage;
  /** Series ids by `metric\0labels`, and how many series each metric has. */
  private readonly ids = new Map<string, number>();
  private readonly perMetric = new Map<MetricName, number>();
  /** Points per minute, for the minutes written since the object started. */
  private readonly perMinute = new Map<number, number>();
  private prunedBefore = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS series (
      id INTEGER PRIMARY KEY, metric TEXT NOT NULL, labels TEXT NOT NULL, total REAL NOT NULL DEFAULT 0,
      created INTEGER NOT NULL, UNIQUE (metric, labels))`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS points (
      minute INTEGER NOT NULL, series INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY (minute, series)) WITHOUT ROWID`);
    for (const row of this.sql.exec<{ id: number; metric: string; labels: string }>('SELECT id, metric, labels FROM series')) {
      if (!isMetricName(row.metric)) continue;
      this.ids.set(`${row.metric}\u0000${row.labels}`, row.id);
      this.perMetric.set(row.metric, (this.perMetric.get(row.metric) ?? 0) + 1);
    }
  }

  /** Adds a batch of counts. Counts of unknown metrics, of minutes outside the retention, or not finite are ignored. */
  record(batch: Count[]): { stored: number } {
    const now = this.clock();
    const current = minuteOf(now);
    const oldest = current - RETENTION_HOURS * 3600;
    let stored = 0;
    this.ctx.storage.transactionSync(() => {
      this.prune(oldest);
      for (const count of Array.isArray(batch) ? batch : []) {
        if (!count || !isMetricName(count.metric) || typeof count.labels !== 'string' || !Number.isFinite(count.value) ||
          count.value <= 0 || !Number.isInteger(count.minute) || count.minute % 60 !== 0 || count.minute < oldest ||
          count.minute > current + FUTURE_SLACK_SECONDS) continue;
        const labels = validLabels(count.metric, count.labels) ? count.labels : other(count.metric);
        this.add(count.metric, labels, count.minute, count.value, now);
        stored += 1;
      }
    });
    return { stored };
  }

  /** The points of minutes `from` to `to` (epoch seconds, inclusive), series by series. */
  read(from: number, to: number): StoredPoint[] {
    return this.sql.exec<{ metric: MetricName; labels: string; minute: number; value: number }>(
      `SELECT s.metric AS metric, s.labels AS labels, p.minute AS minute, p.value AS value FROM points p
       JOIN series s ON s.id = p.series WHERE p.minute BETWEEN ? AND ? ORDER BY s.id, p.minute`, from, to).toArray();
  }

  /** Every series' total since the store began (OpenMetrics counters). */
  totals(): StoredTotal[] {
    return this.sql.exec<{ metric: MetricName; labels: string; total: number; created: number }>(
      'SELECT metric, labels, total, created FROM series ORDER BY id').toArray();
  }

  /** How much the store holds (the tests' bound, and the one worker/docs/operating.md, "Metrics", states). */
  usage(): StoreUsage {
    const points = this.sql.exec<{ n: number; oldest: number | null }>('SELECT COUNT(*) AS n, MIN(minute) AS oldest FROM points').one();
    const series = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM series').one();
    return { points: points.n, series: series.n, bytes: this.sql.databaseSize, oldestMinute: points.oldest };
  }

  private add(metric: MetricName, labels: string, minute: number, value: number, now: number): void {
    let id = this.seriesId(metric, labels, now);
    const existing = this.sql.exec<{ value: number }>('SELECT value FROM points WHERE minute = ? AND series = ?', minute, id).toArray();
    if (existing.length === 0) {
      const inMinute = this.pointsIn(minute);
      if (inMinute >= MAX_POINTS_PER_MINUTE) {
        // The minute is full: the count goes to the metric's `other` series, which may itself be new to the minute
        // (one point over the cap per metric at most).
        const fold = this.seriesId(metric, other(metric), now);
        if (fold !== id) {
          id = fold;
          if (this.sql.exec('SELECT 1 FROM points WHERE minute = ? AND series = ?', minute, id).toArray().length === 0) {
            this.perMinute.set(minute, inMinute + 1);
          }
        }
      } else {
        this.perMinute.set(minute, inMinute + 1);
      }
    }
    this.sql.exec(`INSERT INTO points (minute, series, value) VALUES (?, ?, ?)
      ON CONFLICT (minute, series) DO UPDATE SET value = value + excluded.value`, minute, id, value);
    this.sql.exec('UPDATE series SET total = total + ? WHERE id = ?', value, id);
  }

  private pointsIn(minute: number): number {
    let n = this.perMinute.get(minute);
    if (n === undefined) {
      n = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM points WHERE minute = ?', minute).one().n;
      this.perMinute.set(minute, n);
    }
    return n;
  }

  /** The series' id, made on first use; a metric at its cap of label sets counts everything new as `other`. */
  private seriesId(metric: MetricName, labels: string, now: number): number {
    const known = this.ids.get(`${metric}\u0000${labels}`);
    if (known !== undefined) return known;
    const count = this.perMetric.get(metric) ?? 0;
    const folded = other(metric);
    if (labels !== folded && count >= MAX_SERIES_PER_METRIC - 1) return this.seriesId(metric, folded, now);
    const id = this.sql.exec<{ id: number }>('INSERT INTO series (metric, labels, created) VALUES (?, ?, ?) RETURNING id',
      metric, labels, Math.floor(now / 1000)).one().id;
    this.ids.set(`${metric}\u0000${labels}`, id);
    this.perMetric.set(metric, count + 1);
    return id;
  }

  /** Deletes minutes before `oldest`, once per minute. */
  private prune(oldest: number): void {
    if (oldest <= this.prunedBefore) return;
    this.sql.exec('DELETE FROM points WHERE minute < ?', oldest);
    for (const minute of this.perMinute.keys()) if (minute < oldest) this.perMinute.delete(minute);
    this.prunedBefore = oldest;
  }
}

/** The labels of a metric's `other` series: every label "other". */
function other(metric: MetricName): string {
  return JSON.stringify(METRICS[metric].labels.map(() => 'other'));
}

/** A canonical label text of the right arity: an array of short strings (the recorder's `labelsKey`). */
function validLabels(metric: MetricName, labels: string): boolean {
  if (labels.length > 1024) return false;
  try {
    const values: unknown = JSON.parse(labels);
    return Array.isArray(values) && values.length === METRICS[metric].labels.length &&
      values.every((v) => typeof v === 'string' && v.length <= 64);
  } catch {
    return false;
  }
}
