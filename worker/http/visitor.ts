/**
 * Who is calling: the connecting address (Cloudflare's `CF-Connecting-IP`; with DEV_MODE "true" only, the
 * `x-reelgate-dev-ip` header stands in for it; from a server rendering a page for a visitor and holding the render
 * token, the visitor's address it names in `x-reelgate-visitor-ip`) and a salted hash of it, which is all we ever
 * store or key on.
 * Whatever counts visitors (the abuse limit, turns in the budget's public lane) counts networks: an IPv4 address, or
 * an IPv6 /64 (`visitorNetwork`), since one subscriber holds a whole /64. Geo lookups stay per address.
 */
import type { Env } from '../env.ts';
import { isPublicAddress, parseIpAddress, visitorNetwork } from './ip-address.ts';
import { ApiError } from './errors.ts';
import { BoundedMap } from './bounded-map.ts';

export const DEV_IP_HEADER = 'x-reelgate-dev-ip';

/**
 * The visitor's address, as a server that renders pages for visitors names it (`reelgate/server` in a publisher's
 * Astro, Next.js or Node renderer asks the public API on the visitor's behalf, so geo policies, playback URLs and the
 * abuse limit are the visitor's, not the server's). Taken only from a request carrying the render token
 * (`Authorization: Bearer <RENDER_TOKEN>`); any other request naming a visitor is refused (401), so an anonymous caller
 * can never choose its own address, and a server whose token is wrong or unset gets nothing rather than answers
 * decided for its own address. An empty or malformed value is an unreadable address: never the connection's.
 */
export const VISITOR_IP_HEADER = 'x-reelgate-visitor-ip';

type CallerEnv = Pick<Env, 'DEV_MODE' | 'RENDER_TOKEN'>;

export function devMode(env: Pick<Env, 'DEV_MODE'>): boolean {
  return env.DEV_MODE === 'true';
}

/** Who a request comes from, read once per request (the abuse limit, the budget's turns and geo all ask). */
interface Caller {
  address: string | null;
  /** The counted network: the IPv4 address, or the IPv6 /64. */
  network: string | null;
  /** Whether the address is a public one (worth a geo lookup): asked once per reading. */
  public?: boolean;
}

const MAX_READINGS = 4096;
/**
 * Addresses already read, by their text as sent: a returning visitor's address (every request of a page, every HLS
 * segment) is parsed, canonicalised and cut to its /64 once per isolate, not on every request. Bounded: the oldest
 * reading goes first.
 */
const readings = new BoundedMap<string, Caller>(MAX_READINGS);

function readAddress(raw: string): Caller {
  let known = readings.get(raw);
  if (known) return known;
  const parsed = !raw || raw.length > 64 ? null : parseIpAddress(raw);
  const address = parsed?.address ?? null;
  // An IPv4 address is its own network (what visitorNetwork would answer after parsing it again).
  known = { address, network: parsed ? (parsed.version === 4 ? parsed.address : visitorNetwork(parsed.address)) : null };
  if (raw.length <= 64) {
    readings.set(raw, known);
  }
  return known;
}

/** Where a request keeps the caller it names, per reading of DEV_MODE (the same request read under another env). */
const READ = Symbol('reelgate.caller');
type Reader = Request & { [READ]?: { dev?: Caller; live?: Caller } };

/**
 * The caller a request names, read once per request (the headers, the render token's check, the address's reading)
 * and kept on the request itself: the location, the budget's turn, the abuse limit and playback all ask.
 */
function caller(request: Request, env: CallerEnv): Caller {
  const dev = devMode(env);
  const held = ((request as Reader)[READ] ??= {});
  const known = dev ? held.dev : held.live;
  if (known) return known;
  const raw = ((dev ? request.headers.get(DEV_IP_HEADER) : null) ?? forwardedVisitor(request, env) ??
    request.headers.get('cf-connecting-ip') ?? '').trim();
  const read = readAddress(raw);
  if (dev) held.dev = read;
  else held.live = read;
  return read;
}

/**
 * The visitor a render server names ({@link VISITOR_IP_HEADER}), or null when the request names none. Throws 401 when
 * it names one without the render token.
 */
function forwardedVisitor(request: Request, env: CallerEnv): string | null {
  const named = request.headers.get(VISITOR_IP_HEADER);
  if (named === null) return null;
  const token = env.RENDER_TOKEN;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!token || !given || !sameSecret(given, token)) {
    throw new ApiError(401, 'unauthorized',
      `Only a server holding the worker's render token may name the visitor (${VISITOR_IP_HEADER}).`, null,
      { 'www-authenticate': 'Bearer' });
  }
  return named;
}

/** Compares in constant time for a given length (the token's length is no secret). */
function sameSecret(given: string, expected: string): boolean {
  const encoder = new TextEncoder();
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  return a.byteLength === b.byteLength ? crypto.subtle.timingSafeEqual(a, b) : !crypto.subtle.timingSafeEqual(b, b);
}

/**
 * Whether the caller is the connection itself, so Cloudflare's `request.cf` describes them: not when DEV_MODE's
 * stand-in or a render server's visitor takes the connection's place.
 */
export function connectionIsCaller(request: Request, env: CallerEnv): boolean {
  return !(devMode(env) && request.headers.has(DEV_IP_HEADER)) && !request.headers.has(VISITOR_IP_HEADER);
}

/**
 * The connection's own network (`CF-Connecting-IP`, which Cloudflare sets on every request from outside, replacing any a
 * client sends), read without DEV_MODE's stand-in or a render server's visitor: for a limit that nobody may steer with
 * a header, not even a holder of the render token (the admin sign-in's, gateway/admin/sessions.ts).
 */
export function connectionNetwork(request: Request): string | null {
  return readAddress((request.headers.get('cf-connecting-ip') ?? '').trim()).network;
}

/** The caller's canonical address, or null when absent or malformed. */
export function callerAddress(request: Request, env: CallerEnv): string | null {
  return caller(request, env).address;
}

/** Whether the caller's address is a public one (ip-address.ts `isPublicAddress`); false when there is none. */
export function callerIsPublic(request: Request, env: CallerEnv): boolean {
  const known = caller(request, env);
  known.public ??= known.address !== null && isPublicAddress(known.address);
  return known.public;
}

/** The caller's network as counted (an IPv4 address, an IPv6 /64), or null. */
export function callerNetwork(request: Request, env: CallerEnv): string | null {
  return caller(request, env).network;
}

/** The caller as a counted visitor: the salted hash of their network (IPv4 address or IPv6 /64), or null. */
export async function visitorKey(request: Request, env: CallerEnv & Pick<Env, 'ADDRESS_SALT' | 'API_SECRET'>):
Promise<string | null> {
  const network = callerNetwork(request, env);
  return network ? hashAddress(env, network) : null;
}

/** Imported HMAC keys by secret. The key itself is kept, not the import's promise: a promise made in one request must
 * never be awaited by another (workerd ties it to the request that made it). */
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

/**
 * Hashes already computed, by secret and input: a returning visitor costs no HMAC (each request needs its key for the
 * abuse limit, and most for the budget's turns or the geo cache too). Finished strings only, never promises; in this
 * isolate's memory only (never stored), bounded, oldest out first.
 */
const MAX_HASHES = 4096;
let hashesFor: string | null = null;
const hashes = new BoundedMap<string, string>(MAX_HASHES);

/** The salt the hashes are made under (without a dedicated one, the API secret keys the HMAC: its output reveals nothing about its key). */
function saltOf(env: Pick<Env, 'ADDRESS_SALT' | 'API_SECRET'>): string {
  const secret = env.ADDRESS_SALT || `reelgate-address:${env.API_SECRET}`;
  if (hashesFor !== secret) {
    hashes.clear();
    hashesFor = secret;
  }
  return secret;
}

/** `hashAddress`'s answer when this isolate has it already, without a turn of the microtask queue; else undefined. */
export function knownHash(env: Pick<Env, 'ADDRESS_SALT' | 'API_SECRET'>, address: string): string | undefined {
  saltOf(env);
  return hashes.get(address);
}

/** HMAC-SHA-256 of the address under the salt: stable for cache keys, useless for recovering the address. */
export async function hashAddress(env: Pick<Env, 'ADDRESS_SALT' | 'API_SECRET'>, address: string): Promise<string> {
  const secret = saltOf(env);
  const known = hashes.get(address);
  if (known !== undefined) return known;
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(address)));
  const hash = [...mac.subarray(0, 20)].map((b) => b.toString(16).padStart(2, '0')).join('');
  // Only under the secret it was made with (another secret may have taken over while this one was signing).
  if (hashesFor === secret) {
    hashes.set(address, hash);
  }
  return hash;
}
