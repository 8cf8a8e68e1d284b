/**
 * A Map of at most `limit` entries, the oldest dropped first: the per-isolate tables (memory layers, held answers,
 * hashes, reading memos) that must never grow with what visitors send. Setting a key moves it to the newest place, so
 * the entry dropped is the one written longest ago. Leaf module: imports nothing.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.limit) super.delete(this.keys().next().value as K);
    return this;
  }
}
