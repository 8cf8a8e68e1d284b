/** What a cache entry holds: the stored-at time, a content tag, and the value or the fact that it does not exist. */
export type Envelope<T> =
  | { v: 1; storedAt: number; found: true; etag: string; value: T }
  | { v: 1; storedAt: number; found: false };

/** How a cached answer was served: fresh from a cache, fetched anew, or stale while a refresh runs. */
export type CacheState = 'HIT' | 'MISS' | 'STALE';

export function isEnvelope(value: unknown): value is Envelope<unknown> {
  const e = value as Envelope<unknown> | null;
  return typeof e === 'object' && e !== null && e.v === 1 && typeof e.storedAt === 'number' && typeof e.found === 'boolean';
}

/** A strong ETag over a JSON text: the first 16 bytes of its SHA-256, base64url. */
export async function etagOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest.subarray(0, 16)) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}
