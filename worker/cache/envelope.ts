/** What a cache entry holds: the stored-at time, a content tag, and the value or the fact that it does not exist. */
export type Envelope<T> =
  | { v: 1; storedAt: number; found: true; etag: string; value: T }
  | { v: 1; storedAt: number; found: false };

export function isEnvelope(value: unknown): value is Envelope<unknown> {
  const e = value as Envelope<unknown> | null;
  return typeof e === 'object' && e !== null && e.v === 1 && typeof e.storedAt === 'number' && typeof e.found === 'boolean';
}
