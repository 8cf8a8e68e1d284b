/**
 * The isolate's side: `count` adds to this isolate's tally (no I/O), and the front door (and the budget object, for
 * its own counts) calls `flushSoon` after each answer, which sends the tally to the metrics object in the background
 * (`waitUntil`) when it is `metrics.flush_seconds` old or large. A batch that cannot be sent is kept for the next
 * flush, so a brief outage of the object loses nothing; an isolate recycled with counts pending loses at most those
 * seconds. `/admin/metrics` flushes its own isolate first, so under `npm start` (one isolate) it shows every count.
 */
import type { MetricsConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { minuteOf, type LabelsOf, type MetricName } from './catalog.ts';
import { Grid } from './grid.ts';
import { Tally } from './tally.ts';
import { DOORS, type Door } from '../http/paths.ts';

export { DOORS, type Door };

/** The one metrics object all isolates send to. */
export const METRICS_OBJECT_NAME = 'global';
/** Flush at once when this many minute-series are pending, whatever the interval. */
const FLUSH_AT_SIZE = 1024;

const tally = new Tally();

/** The status classes `requests` counts by front door (http/paths.ts `DOORS`). */
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
const requests = new Grid('requests', ['door', 'class'], DOORS, CLASSES);
const CACHE_KINDS = ['feed', 'media', 'player', 'geo'] as const;
const CACHE_STATES = ['HIT', 'STALE', 'MISS', 'REVALIDATED'] as const;
const cacheAnswers = new Grid('cache', ['kind', 'state'], CACHE_KINDS, CACHE_STATES);
const GRIDS = [requests, cacheAnswers];

let recording = true;
let flushEveryMs = 10_000;
let lastFlush = 0;

export function metricsStub(env: Pick<Env, 'METRICS'>) {
  return env.METRICS.get(env.METRICS.idFromName(METRICS_OBJECT_NAME));
}

/** Applies `metrics` of the configuration to this isolate (a request's front door, the budget object). */
export function useMetricsConfig(config: MetricsConfig): void {
  recording = config.record;
  flushEveryMs = config.flushSeconds * 1000;
}

/** Whether this isolate counts (callers that build labels at some cost ask first). */
export function isRecording(): boolean {
  return recording;
}

/** Counts `by` (default 1) for the series in the current minute. */
export function count<M extends MetricName>(metric: M, labels: LabelsOf<M>, by = 1): void {
  if (!recording || !(by > 0)) return;
  tally.add(metric, labels, by, minuteOf(Date.now()));
}

/** A request answered, by the door it came in by (`DOORS` index) and its status. */
export function countRequest(door: number, status: number): void {
  if (recording) requests.add(door, Math.min(4, Math.max(0, Math.floor(status / 100) - 1)), minuteOf(Date.now()), tally);
}

/** A cache lookup's answer, by kind and state. */
export function countCacheAnswer(kind: (typeof CACHE_KINDS)[number], state: (typeof CACHE_STATES)[number]): void {
  if (recording) cacheAnswers.add(CACHE_KINDS.indexOf(kind), CACHE_STATES.indexOf(state), minuteOf(Date.now()), tally);
}

/** Sends the tally in the background if it is due: old enough, or large. Costs a comparison otherwise. */
export function flushSoon(env: Pick<Env, 'METRICS'>, waitUntil: (promise: Promise<unknown>) => void): void {
  if (tally.size === 0 && !GRIDS.some((grid) => grid.pending)) return;
  const now = Date.now();
  if (now - lastFlush < flushEveryMs && tally.size < FLUSH_AT_SIZE) return;
  lastFlush = now;
  waitUntil(flushNow(env));
}

/** Sends the tally now; on failure it is kept for the next flush. */
export async function flushNow(env: Pick<Env, 'METRICS'>): Promise<void> {
  // An env without the binding (a test's own) keeps its counts: the tally is bounded.
  if (!env.METRICS) return;
  for (const grid of GRIDS) grid.spill(tally);
  const batch = tally.drain(minuteOf(Date.now()));
  if (batch.length === 0) return;
  try {
    await metricsStub(env).record(batch);
  } catch {
    tally.restore(batch);
    console.error('reelgate metrics: could not send', batch.length, 'counts; kept for the next flush');
  }
}

/** Forgets what is pending (tests: an isolate recycled before it flushed). */
export function discardPending(): void {
  for (const grid of GRIDS) grid.spill(tally);
  tally.drain(0);
  lastFlush = 0;
}
