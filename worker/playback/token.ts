/**
 * Playback tokens: what one playback URL opens, for how long, and (optionally) for which network, signed with
 * HMAC-SHA-256 under a key only the worker holds. A token is one base64url string (letters, digits, `-`, `_`: it passes
 * the front door's raw-path check as it is). Its bytes:
 *
 *   version (1) | key id length (1) | key id | site id (8) | media id (8) | flags (1) | resource digest (8) |
 *   expiry, Unix seconds (4) | network digest (8, when flagged) | HMAC-SHA-256 over everything before it (32)
 *
 * flags: bits 0-1 the resource (source, track, poster, sprite: an image a storyboard's cues name), bit 2 the scope (a
 * folder rather than one file), bit 3 a network binding. The resource digest is the first 8 bytes of SHA-256 of the upstream delivery URL the worker holds
 * for it; the worker resolves it against its own record of the media, so the token never carries a URL a caller could
 * change. The network digest is the salted hash of the viewer's /24 (IPv4) or /64 (IPv6).
 */
import { type PlaybackKey } from './keys.ts';

/**
 * What a URL opens: a rendition (`source`), a text track (`track`, the storyboard VTT among them), a poster image, or
 * a `sprite`: an image of the media's own storyboard that its VTT names (storyboard.ts), minted as the VTT is served.
 */
export type PlaybackResource = 'source' | 'track' | 'poster' | 'sprite';
const RESOURCES: readonly PlaybackResource[] = ['source', 'track', 'poster', 'sprite'];

export interface PlaybackGrant {
  site: string;
  media: string;
  resource: PlaybackResource;
  /** `folder`: every file under the folder of the resource's URL (an HLS rendition); `file`: that file only. */
  scope: 'file' | 'folder';
  /** 8 bytes: SHA-256 prefix of the upstream URL. */
  digest: Uint8Array;
  /** Unix seconds. */
  expires: number;
  /** 8 bytes, or null when not bound to a network. */
  network: Uint8Array | null;
}

export type Verified =
  | { ok: true; grant: PlaybackGrant; kid: string }
  | { ok: false; reason: 'invalid' | 'expired' };

const VERSION = 1;
const ID = /^[A-Za-z0-9]{8}$/;
const MAC_LENGTH = 32;
const DIGEST_LENGTH = 8;
/** Base64url of the longest token: well under the public path limit. */
export const MAX_TOKEN_LENGTH = 160;

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    // One canonical spelling per token: no second text (other padding bits) for the same bytes.
    return base64url(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}

/** The first 8 bytes of SHA-256 of a text (a delivery URL, a network's hash). */
export async function digest8(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).slice(0, DIGEST_LENGTH);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

export async function signToken(key: PlaybackKey, grant: PlaybackGrant): Promise<string> {
  if (!ID.test(grant.site) || !ID.test(grant.media)) throw new Error('playback token: ids must be 8 letters or digits');
  if (grant.digest.length !== DIGEST_LENGTH || (grant.network && grant.network.length !== DIGEST_LENGTH)) {
    throw new Error('playback token: digests are 8 bytes');
  }
  const expires = Math.floor(grant.expires);
  const flags = RESOURCES.indexOf(grant.resource) | (grant.scope === 'folder' ? 4 : 0) | (grant.network ? 8 : 0);
  const body = new Uint8Array([
    VERSION, key.kid.length, ...ascii(key.kid), ...ascii(grant.site), ...ascii(grant.media), flags, ...grant.digest,
    (expires >>> 24) & 0xff, (expires >>> 16) & 0xff, (expires >>> 8) & 0xff, expires & 0xff,
    ...(grant.network ?? []),
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key.key, body));
  const token = new Uint8Array(body.length + MAC_LENGTH);
  token.set(body);
  token.set(mac, body.length);
  return base64url(token);
}

/** Checks the signature first (under the key its id names), then the expiry. Nothing unsigned is trusted. */
export async function verifyToken(keys: readonly PlaybackKey[], token: string, nowSeconds: number): Promise<Verified> {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (token.length > MAX_TOKEN_LENGTH) return invalid;
  const bytes = fromBase64url(token);
  if (!bytes || bytes.length < 2 + 1 + 16 + 1 + DIGEST_LENGTH + 4 + MAC_LENGTH || bytes[0] !== VERSION) return invalid;
  const kidLength = bytes[1]!;
  let at = 2;
  const text = (n: number) => {
    const out = String.fromCharCode(...bytes.subarray(at, at + n));
    at += n;
    return out;
  };
  const kid = text(kidLength);
  const key = keys.find((k) => k.kid === kid);
  if (!key) return invalid;
  const site = text(8);
  const media = text(8);
  const flags = bytes[at++]!;
  const networkBound = (flags & 8) !== 0;
  const bodyLength = 2 + kidLength + 16 + 1 + DIGEST_LENGTH + 4 + (networkBound ? DIGEST_LENGTH : 0);
  if (bytes.length !== bodyLength + MAC_LENGTH || (flags & ~0x0f) !== 0) return invalid;
  const signed = await crypto.subtle.verify('HMAC', key.key, bytes.subarray(bodyLength), bytes.subarray(0, bodyLength));
  if (!signed || !ID.test(site) || !ID.test(media)) return invalid;
  const digest = bytes.slice(at, at + DIGEST_LENGTH);
  at += DIGEST_LENGTH;
  const expires = ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
  at += 4;
  const network = networkBound ? bytes.slice(at, at + DIGEST_LENGTH) : null;
  if (expires <= nowSeconds) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    kid,
    grant: { site, media, resource: RESOURCES[flags & 3]!, scope: flags & 4 ? 'folder' : 'file', digest, expires, network },
  };
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
