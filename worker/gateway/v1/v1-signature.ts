/**
 * The v1 signature scheme, so unmodified v1 clients can call `/v1`: every call carries `api_key` (a gateway key's id),
 * `api_timestamp` (Unix seconds), `api_nonce` and `api_signature`, the SHA-1 hex of the signature base string followed
 * by the key's v1 secret. The base string is every parameter but `api_signature`, each name and value encoded as RFC
 * 3986 says (only `A-Z a-z 0-9 - . _ ~` stay as they are, UTF-8 bytes as `%XX`), sorted by name, `name=value` joined
 * with `&` — the way the platform's v1 clients build it.
 *
 * The v1 secret is not stored anywhere: it is HMAC-SHA256(V1_SIGNING_SECRET, key id + the key's salt in D1), shown once
 * when issued. A leaked database (salts only) signs nothing; a new salt retires the old secret.
 *
 * Replays: the timestamp must be within `V1_TIMESTAMP_WINDOW_SECONDS` of the worker's clock, and each (timestamp, nonce)
 * is accepted once per key (D1 `v1_nonces`, one atomic insert). The signature covers both, so a replay is refused.
 */
import { ApiError } from '../../http/errors.ts';
import { base64url } from '../access-keys.ts';
import { tokensEqual } from '../admin/auth.ts';

export const V1_TIMESTAMP_WINDOW_SECONDS = 300;
export const V1_SECRET_PREFIX = 'rgv1_';
/** v1 clients send 8 (Node, PHP) or 9 (Python) random digits; any 8 to 64 letters or digits will do. */
const NONCE_SHAPE = /^[A-Za-z0-9]{8,64}$/;
const TIMESTAMP_SHAPE = /^\d{1,12}$/;
const KEY_ID_SHAPE = /^key_[A-Za-z0-9_-]{1,32}$/;
const SIGNATURE_SHAPE = /^[0-9a-fA-F]{40}$/;
/** The parameters that authenticate a v1 call (and `api_format`, `api_kit`, which are signed like any other). */
export const V1_SIGNATURE_PARAMS = ['api_key', 'api_timestamp', 'api_nonce', 'api_signature'] as const;

/** A refusal of the signature: always 401, with the v1 code that says why. */
export const signatureRefused = (code: string, description: string) => new ApiError(401, code, description);

/** RFC 3986 percent-encoding: `encodeURIComponent` leaves `! ' ( ) *` as they are; v1 encodes them too. */
export function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The string a v1 client signs: every parameter but `api_signature`, encoded, sorted by name, joined with `&`. */
export function signatureBaseString(params: Iterable<[string, string]>): string {
  const pairs = [...params]
    .filter(([name]) => name !== 'api_signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const);
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

export async function sha1Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The v1 signature of `params` with `secret`, as a v1 client computes it. */
export async function v1Signature(params: Iterable<[string, string]>, secret: string): Promise<string> {
  return sha1Hex(`${signatureBaseString(params)}${secret}`);
}

/** A key's v1 secret: HMAC-SHA256(worker secret, "reelgate-v1:<key id>:<salt>"), base64url, with a recognisable prefix. */
export async function deriveV1Secret(signingSecret: string, keyId: string, salt: string): Promise<string> {
  const hmacKey = await crypto.subtle.importKey(
    'raw', new TextEncoder().encode(signingSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(`reelgate-v1:${keyId}:${salt}`));
  return `${V1_SECRET_PREFIX}${base64url(new Uint8Array(mac))}`;
}

/** A fresh salt for a key's v1 secret. */
export function newV1Salt(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** Does the call try the v1 signature (rather than a Bearer key)? */
export function isSignedCall(params: URLSearchParams): boolean {
  return V1_SIGNATURE_PARAMS.some((name) => params.has(name));
}

export interface SignedCall {
  keyId: string;
  timestamp: number;
  nonce: string;
  signature: string;
}

/** The authentication parameters of a signed call, checked for presence, shape and the timestamp window. */
export function readSignedCall(params: URLSearchParams, nowSeconds: number): SignedCall {
  const keyId = params.get('api_key');
  if (keyId === null || keyId === '') throw signatureRefused('ApiKeyMissing', 'api_key (the access key id) is required.');
  if (!KEY_ID_SHAPE.test(keyId)) throw signatureRefused('ApiKeyInvalid', 'api_key is not an access key id (key_…).');
  const signature = params.get('api_signature');
  if (signature === null || signature === '') throw signatureRefused('SignatureMissing', 'api_signature is required.');
  const timestampText = params.get('api_timestamp');
  if (timestampText === null || timestampText === '') {
    throw signatureRefused('TimestampMissing', 'api_timestamp (Unix seconds) is required.');
  }
  if (!TIMESTAMP_SHAPE.test(timestampText)) throw signatureRefused('TimestampInvalid', 'api_timestamp must be Unix seconds.');
  const timestamp = Number(timestampText);
  if (Math.abs(nowSeconds - timestamp) > V1_TIMESTAMP_WINDOW_SECONDS) {
    throw signatureRefused('TimestampExpired',
      `api_timestamp is more than ${V1_TIMESTAMP_WINDOW_SECONDS} seconds away from the gateway's clock; check the client's clock.`);
  }
  const nonce = params.get('api_nonce');
  if (nonce === null || nonce === '') throw signatureRefused('NonceMissing', 'api_nonce is required.');
  if (!NONCE_SHAPE.test(nonce)) throw signatureRefused('NonceInvalid', 'api_nonce must be 8 to 64 letters or digits.');
  if (!SIGNATURE_SHAPE.test(signature)) throw signatureRefused('SignatureInvalid', 'The signature does not match.');
  return { keyId, timestamp, nonce, signature: signature.toLowerCase() };
}

/** Constant-time check of the call's signature against the one `secret` gives (both hashed to equal lengths first). */
export async function signatureMatches(params: URLSearchParams, call: SignedCall, secret: string): Promise<boolean> {
  return tokensEqual(call.signature, await v1Signature(params, secret));
}

/**
 * Accepts a (timestamp, nonce) of a key once: true the first time, false for a replay. One D1 batch: rows that left the
 * window are dropped, then the insert either adds the row or, for a pair already seen, changes nothing.
 */
export async function acceptNonce(db: D1Database, call: SignedCall, nowSeconds: number): Promise<boolean> {
  const [, inserted] = await db.batch([
    db.prepare('DELETE FROM v1_nonces WHERE api_timestamp < ?').bind(nowSeconds - V1_TIMESTAMP_WINDOW_SECONDS),
    db.prepare('INSERT OR IGNORE INTO v1_nonces (key_id, api_timestamp, api_nonce) VALUES (?, ?, ?)')
      .bind(call.keyId, call.timestamp, call.nonce),
  ]);
  return (inserted?.meta.changes ?? 0) === 1;
}
