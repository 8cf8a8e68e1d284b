import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, mergeCustomParams } from '../../worker/upstream/index.ts';

describe('mergeCustomParams', () => {
  it('produces the complete object: kept keys, changed keys, new keys; null deletes', () => {
    const current = { genre: 'drama', rating: 'pg', region: 'eu' };
    const merged = mergeCustomParams(current, { rating: '12', region: null, season: '2' });
    expect(merged).toEqual({ genre: 'drama', rating: '12', season: '2' });
    expect(current).toEqual({ genre: 'drama', rating: 'pg', region: 'eu' }); // inputs untouched
  });

  it('with no changes it returns the current object as is (so a PATCH of it deletes nothing)', () => {
    expect(mergeCustomParams({ a: '1', b: '2' }, {})).toEqual({ a: '1', b: '2' });
  });

  it('deleting an absent key is harmless; an empty string is a value, not a deletion', () => {
    expect(mergeCustomParams({ a: '1' }, { missing: null, a: '' })).toEqual({ a: '' });
  });

  it('keeps a key named __proto__ as data', () => {
    const merged = mergeCustomParams({}, JSON.parse('{"__proto__":"x"}') as Record<string, string>);
    expect(Object.keys(merged)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });

  it('refuses values that are neither strings nor null, and empty names', () => {
    expect(() => mergeCustomParams({}, { n: 5 as unknown as string })).toThrow(InvalidArgumentError);
    expect(() => mergeCustomParams({}, { '': 'x' })).toThrow(InvalidArgumentError);
  });
});
