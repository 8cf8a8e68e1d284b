// Deterministic randomness for the seed catalog, so every reset yields the same ids, titles and figures.

/** mulberry32: small, fast, good enough for fixtures. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as T);
    return out;
  };
  const id = (): string => {
    let out = '';
    for (let i = 0; i < 8; i++) out += ID_ALPHABET[Math.floor(next() * ID_ALPHABET.length)];
    return out;
  };
  return { next, int, pick, sample, id };
}

export interface Random {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  sample<T>(items: readonly T[], count: number): T[];
  /** An 8-character id in the platform's style. */
  id(): string;
}

const ID_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A stable 32-bit hash of a string (FNV-1a), for figures derived from ids and dates. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * An id made from a text rather than drawn from the seed's stream: the seed adds resources with these without
 * shifting any id drawn after them.
 */
export function derivedId(text: string): string {
  return createRandom(hashString(text)).id();
}

/** Ids of resources created through the API: random (not part of the deterministic seed). */
export function freshId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let out = '';
  for (const byte of bytes) out += ID_ALPHABET[byte % ID_ALPHABET.length];
  return out;
}
