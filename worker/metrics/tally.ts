/**
 * An isolate's counts not yet sent: per minute, per series. Adding is a map update, nothing else (the cached path pays
 * no I/O for it); `drain` hands the batch to the flush, and `restore` takes back one that could not be sent. Bounded:
 * beyond `MAX_PENDING` minute-series the counts are dropped, and the drop is itself counted.
 */
import { labelsKey, type LabelsOf, type MetricName } from './catalog.ts';

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
const SEP = '\u0000';

export class Tally {
  private readonly pending = new Map<string, number>();
  private dropped = 0;

  get size(): number {
    return this.pending.size + (this.dropped > 0 ? 1 : 0);
  }

  add<M extends MetricName>(metric: M, labels: LabelsOf<M>, by: number, minute: number): void {
    this.addKey(`${minute}${SEP}${metric}${SEP}${labelsKey(metric, labels)}`, by);
  }

  private addKey(key: string, by: number): void {
    const had = this.pending.get(key);
    if (had !== undefined) this.pending.set(key, had + by);
    else if (this.pending.size < MAX_PENDING) this.pending.set(key, by);
    else this.dropped += 1;
  }

  /** Everything pending, as a batch; the tally is empty after. */
  drain(now: number): Count[] {
    const batch: Count[] = [];
    for (const [key, value] of this.pending) {
      const [minute, metric, labels] = key.split(SEP) as [string, MetricName, string];
      batch.push({ minute: Number(minute), metric, labels, value });
    }
    if (this.dropped > 0) batch.push({ minute: now, metric: 'metrics_dropped', labels: '[]', value: this.dropped });
    this.pending.clear();
    this.dropped = 0;
    return batch;
  }

  /** A batch that could not be sent comes back, to go with the next one. */
  restore(batch: readonly Count[]): void {
    for (const count of batch) {
      if (count.metric === 'metrics_dropped') this.dropped += count.value;
      else this.addKey(`${count.minute}${SEP}${count.metric}${SEP}${count.labels}`, count.value);
    }
  }
}
