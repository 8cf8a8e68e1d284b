// The isolate's tally (worker/metrics/tally.ts): counts add up per minute and series, a batch that could not be sent
// comes back whole, and a full tally drops what it cannot hold but counts the drop.
import { describe, expect, it } from 'vitest';
import { MAX_PENDING, Tally } from '../../worker/metrics/tally.ts';

describe('the tally', () => {
  it('adds per minute and series, and drains canonical labels once', () => {
    const tally = new Tally();
    tally.add('requests', { door: 'api', class: '2xx' }, 1, 60);
    tally.add('requests', { door: 'api', class: '2xx' }, 2, 60);
    tally.add('requests', { door: 'api', class: '2xx' }, 1, 120);
    tally.add('gateway_calls', { key: 'key_a' }, 1, 60);
    const batch = tally.drain(120);
    expect(batch).toEqual([
      { minute: 60, metric: 'requests', labels: '["api","2xx"]', value: 3 },
      { minute: 120, metric: 'requests', labels: '["api","2xx"]', value: 1 },
      { minute: 60, metric: 'gateway_calls', labels: '["key_a"]', value: 1 },
    ]);
    expect(tally.size).toBe(0);
    expect(tally.drain(120)).toEqual([]);
  });

  it('takes a batch back after a failed flush, merged with what came since', () => {
    const tally = new Tally();
    tally.add('playback_bytes', {}, 100, 60);
    const failed = tally.drain(60);
    tally.add('playback_bytes', {}, 50, 60);
    tally.restore(failed);
    tally.restore(failed.map((c) => ({ ...c })));
    const batch = tally.drain(60);
    const total = batch.filter((c) => c.metric === 'playback_bytes').reduce((sum, c) => sum + c.value, 0);
    expect(total).toBe(250);
  });

  it('holds at most MAX_PENDING series, and counts what it dropped', () => {
    const tally = new Tally();
    for (let i = 0; i < MAX_PENDING + 10; i += 1) tally.add('gateway_calls', { key: `key_${i}` }, 1, 60);
    const batch = tally.drain(60);
    expect(batch.filter((c) => c.metric === 'gateway_calls')).toHaveLength(MAX_PENDING);
    expect(batch.find((c) => c.metric === 'metrics_dropped')!.value).toBe(10);
  });
});
