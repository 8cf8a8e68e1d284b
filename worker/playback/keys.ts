/**
 * The playback signing keys: the `PLAYBACK_KEYS` secret, `kid:secret` pairs separated by commas or whitespace. The
 * first key signs; every listed key verifies, so a rotation adds the new key second, makes it first once deployed, and
 * drops the old one when the longest-lived token it signed has expired. At most two keys, secrets of 32 characters or
 * more, key ids of 1-16 letters, digits, `_` or `-`. Without the secret, one key is derived from `API_SECRET` (key id
 * `api`): URLs still cannot be forged, but they rotate only with the API secret; production sets PLAYBACK_KEYS.
 */
import type { Env } from '../env.ts';

export class PlaybackKeyError extends Error {
  override name = 'ConfigError';
}

export interface PlaybackKey {
  kid: string;
  key: CryptoKey;
}

const KID = /^[A-Za-z0-9_-]{1,16}$/;
export const MAX_KEYS = 2;
const MIN_SECRET_LENGTH = 32;
export const DERIVED_KID = 'api';

/** The listed keys, in order, unimported. Throws a PlaybackKeyError naming the mistake (never the secret). */
export function parsePlaybackKeys(text: string): Array<{ kid: string; secret: string }> {
  const pairs = text.split(/[\s,]+/).filter(Boolean);
  if (!pairs.length) throw new PlaybackKeyError('PLAYBACK_KEYS is empty');
  if (pairs.length > MAX_KEYS) throw new PlaybackKeyError(`PLAYBACK_KEYS holds ${pairs.length} keys; at most ${MAX_KEYS}`);
  const out: Array<{ kid: string; secret: string }> = [];
  for (const [index, pair] of pairs.entries()) {
    const colon = pair.indexOf(':');
    const kid = colon < 0 ? '' : pair.slice(0, colon);
    const secret = colon < 0 ? '' : pair.slice(colon + 1);
    if (!KID.test(kid)) throw new PlaybackKeyError(`PLAYBACK_KEYS key ${index + 1}: the key id must be 1-16 letters, digits, _ or -`);
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new PlaybackKeyError(`PLAYBACK_KEYS key ${kid}: the secret must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    if (out.some((k) => k.kid === kid)) throw new PlaybackKeyError(`PLAYBACK_KEYS: the key id ${kid} is listed twice`);
    out.push({ kid, secret });
  }
  return out;
}

/** Imported keys by their source text; the keys themselves are kept, never an import's promise (see visitor.ts). */
let memo: { source: string; keys: PlaybackKey[] } | null = null;

async function importKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false,
    ['sign', 'verify']);
}

/** The keys in force, the signing key first. */
export async function playbackKeys(env: Pick<Env, 'PLAYBACK_KEYS' | 'API_SECRET'>): Promise<PlaybackKey[]> {
  const source = env.PLAYBACK_KEYS?.trim() ? env.PLAYBACK_KEYS : `derived:${env.API_SECRET}`;
  if (memo?.source === source) return memo.keys;
  let keys: PlaybackKey[];
  if (env.PLAYBACK_KEYS?.trim()) {
    keys = await Promise.all(parsePlaybackKeys(env.PLAYBACK_KEYS).map(async ({ kid, secret }) => ({ kid, key: await importKey(secret) })));
  } else {
    // HMAC(API_SECRET, label) as the key: it reveals nothing of the API secret, and nothing else signs with it.
    const base = await importKey(env.API_SECRET);
    const derived = await crypto.subtle.sign('HMAC', base, new TextEncoder().encode('reelgate playback key v1'));
    keys = [{ kid: DERIVED_KID, key: await crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) }];
  }
  memo = { source, keys };
  return keys;
}
