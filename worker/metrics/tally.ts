/**
 * An isolate's counts not yet sent: per minute, per series. Adding is a string join and a map update, nothing else
 * (the cached path pays no I/O and no encoding for it: label values are checked and encoded once per series, when a
 * batch is drained); `drain` hands the batch to the flush, and `restore` takes back one that could not be sent.
 * Bounded: beyond `MAX_PENDING` minute-series the counts are dropped, and the drop is itself counted.
 */
import { labelsKey, METRICS, type LabelsOf, type MetricName } from './catalog.ts';

/** One count of a batch: a series in a minute. */
export interface Count {
  /** Epoch second of the minute. */
  minute: number;
  metric: MetricName;
  /** Canonical label values (catalog.ts `labelsKey`). */
  labels: string;
  value: number;
}

export const MAX_PENDING = 4096;
/** Between the parts of a pending key: no label value the worker records contains it (drain checks). */
const SEP = '\u0001';

export class Tally {
  /** `minute SEP metric SEP value SEP value…` → count. */
  private readonly pending = new Map<string, number>();
  /** Batches given back by a failed flush, already canonical. */
  private readonly restored = new Map<string, Count>();
  private dropped = 0;

  get size(): number {
    return this.pending.size + this.restored.size + (this.dropped > 0 ? 1 : 0);
  }

  add<M extends MetricName>(metric: M, labels: LabelsOf<M>, by: number, minute: number): void {
    let key = `${minute}${SEP}${metric}`;
    for (const name of METRICS[metric].labels) key += SEP + (labels as Record<string, string>)[name];
    const had = this.pending.get(key);
    if (had !== undefined) this.pending.set(key, had + by);
    else if (this.size < MAX_PENDING) this.pending.set(key, by);
    else this.dropped += 1;
  }

  /** Everything pending, as a batch; the tally is empty after. */
  drain(now: number): Count[] {
    const batch: Count[] = [...this.restored.values()];
    for (const [key, value] of this.pending) {
      const [minute, metric, ...values] = key.split(SEP) as [string, MetricName, ...string[]];
      const names = METRICS[metric].labels as readonly string[];
      const labels = Object.fromEntries(names.map((name, i) => [name, values.length === names.length ? values[i]! : 'other']));
      batch.push({ minute: Number(minute), metric, labels: labelsKey(metric, labels as LabelsOf<typeof metric>), value });
    }
    if (this.dropped > 0) batch.push({ minute: now, metric: 'metrics_dropped', labels: '[]', value: this.dropped });
    this.pending.clear();
    this.restored.clear();
    this.dropped = 0;
    return batch;
  }

  /** A batch that could not be sent comes back, to go with the next one. */
  restore(batch: readonly Count[]): void {
    for (const count of batch) {
      if (count.metric === 'metrics_dropped') {
        this.dropped += count.value;
        continue;
      }
      const key = `${count.minute}${SEP}${count.metric}${SEP}${count.labels}`;
      const had = this.restored.get(key);
      if (had) had.value += count.value;
      else if (this.size < MAX_PENDING) this.restored.set(key, { ...count });
      else this.dropped += 1;
    }
  }
}
