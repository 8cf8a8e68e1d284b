/**
 * Who is calling: the connecting address (Cloudflare's `CF-Connecting-IP`; with DEV_MODE "true" only, the
 * `x-reelgate-dev-ip` header stands in for it) and a salted hash of it, which is all we ever store or key on.
 * Whatever counts visitors (the abuse limit, turns in the budget's public lane) counts networks: an IPv4 address, or
 * an IPv6 /64 (`visitorNetwork`), since one subscriber holds a whole /64. Geo lookups stay per address.
 */
import type { Env } from './env.ts';
import { parseIpAddress, visitorNetwork } from './upstream/index.ts';

export const DEV_IP_HEADER = 'x-reelgate-dev-ip';

export function devMode(env: Pick<Env, 'DEV_MODE'>): boolean {
  return env.DEV_MODE === 'true';
}

/** The caller's canonical address, or null when absent or malformed. */
export function callerAddress(request: Request, env: Pick<Env, 'DEV_MODE'>): string | null {
  const dev = devMode(env) ? request.headers.get(DEV_IP_HEADER) : null;
  const raw = (dev ?? request.headers.get('cf-connecting-ip') ?? '').trim();
  if (!raw || raw.length > 64) return null;
  return parseIpAddress(raw)?.address ?? null;
}

/** Imported HMAC keys by secret. The key itself is kept, not the import's promise: a promise made in one request must
 * never be awaited by another (workerd ties it to the request that made it). */
/** The caller as a counted visitor: the salted hash of their network (IPv4 address or IPv6 /64), or null. */
export async function visitorKey(request: Request, env: Pick<Env, 'DEV_MODE' | 'ADDRESS_SALT' | 'API_SECRET'>):
Promise<string | null> {
  const address = callerAddress(request, env);
  const network = address ? visitorNetwork(address) : null;
  return network ? hashAddress(env, network) : null;
}

const keys = new Map<string, CryptoKey>();

async function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false,
      ['sign']);
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA-256 of the address under the salt: stable for cache keys, useless for recovering the address. */
export async function hashAddress(env: Pick<Env, 'ADDRESS_SALT' | 'API_SECRET'>, address: string): Promise<string> {
  // Without a dedicated salt, the API secret keys the HMAC (the output reveals nothing about its key).
  const secret = env.ADDRESS_SALT || `reelgate-address:${env.API_SECRET}`;
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(address)));
  return [...mac.subarray(0, 20)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
