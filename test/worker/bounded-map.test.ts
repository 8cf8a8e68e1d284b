// The per-isolate tables never grow with what visitors send (worker/http/bounded-map.ts): at most their limit, the
// entry written longest ago dropped first.
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../worker/http/bounded-map.ts';

describe('a bounded map', () => {
  it('holds at most its limit, dropping the entry written longest ago; writing a key again makes it the newest', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
    map.set('a', 10);
    map.set('d', 3);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
    expect(map.get('a')).toBe(10);
    expect(map.size).toBe(3);
    for (let i = 0; i < 1000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect([...map.keys()]).toEqual(['k997', 'k998', 'k999']);
  });
});
