/**
 * The counts every request makes (its door and status class; a cache lookup's kind and state) in a fixed grid of
 * numbers for the current minute: counting is an index and an increment, with no string built and no map looked up
 * (the cached path's cost; `npm run bench -- --section metrics`). When the minute turns, or a batch is drained, the
 * grid's non-zero cells go into the tally as ordinary counts.
 */
import type { MetricName } from './catalog.ts';
import type { Tally } from './tally.ts';

export class Grid<A extends string, B extends string> {
  private minute = 0;
  private readonly cells: Float64Array;
  private touched = false;

  constructor(
    private readonly metric: MetricName,
    private readonly names: readonly [string, string],
    private readonly rows: readonly A[],
    private readonly columns: readonly B[],
  ) {
    this.cells = new Float64Array(rows.length * columns.length);
  }

  /** Counts one at (row, column) in `minute`; a new minute first moves the old one's counts into `tally`. */
  add(row: number, column: number, minute: number, tally: Tally): void {
    if (minute !== this.minute) {
      this.spill(tally);
      this.minute = minute;
    }
    this.cells[row * this.columns.length + column]! += 1;
    this.touched = true;
  }

  /** Moves the grid's counts into the tally (before a drain, or when the minute turns). */
  spill(tally: Tally): void {
    if (!this.touched) return;
    const [first, second] = this.names;
    for (let i = 0; i < this.cells.length; i += 1) {
      const value = this.cells[i]!;
      if (value === 0) continue;
      const labels = { [first]: this.rows[Math.floor(i / this.columns.length)]!, [second]: this.columns[i % this.columns.length]! };
      tally.add(this.metric, labels as never, value, this.minute);
    }
    this.cells.fill(0);
    this.touched = false;
  }

  get pending(): boolean {
    return this.touched;
  }
}
