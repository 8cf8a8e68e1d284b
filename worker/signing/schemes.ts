/**
 * The platform's two URL token signing schemes (jwplayer/jwplatform-docs, docs/delivery-api/):
 * - legacy, for file URLs (`/videos/`, `/manifests/`, `/tracks/`, `/strips/`, `/thumbs/`…): `?exp=<unix>&sig=<hex>`,
 *   `sig = md5("<path without its leading slash>:<exp>:<secret>")`; the signature covers the path only;
 * - JWT, for the `/v2/…` delivery resources (posters, thumbnails, feeds): `?token=<JWT>`, HS256 over
 *   `{ resource: <path>, exp, …the URL's other query parameters as claims }`.
 * Any signature a URL already carries is replaced: a URL is signed for the moment it is handed out or fetched.
 */

/** Query parameters that are a signature, never part of what is signed. */
const SIGNATURE_PARAMS = ['exp', 'sig', 'token'];

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether a path is one of the `/v2/…` delivery resources, signed with a JWT. */
export function isV2Resource(path: string): boolean {
  return path.startsWith('/v2/');
}

/** The legacy signature of a path (as the URL carries it, percent-encoding included) valid until `exp`. */
export async function legacySignature(path: string, exp: number, secret: string): Promise<string> {
  const text = `${path.replace(/^\//, '')}:${exp}:${secret}`;
  // MD5, as the platform specifies: workerd's Web Crypto has it (a Cloudflare extension).
  return hex(await crypto.subtle.digest('MD5', encoder.encode(text)));
}

/** HMAC keys per secret: imported once per isolate. */
const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    hmacKeys.set(secret, key);
  }
  return key;
}

/** A delivery JWT for `resource` until `exp`, with the URL's other query parameters as claims. */
export async function deliveryToken(resource: string, exp: number, claims: Record<string, string>, secret: string): Promise<string> {
  const header = base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  const payload = base64url(encoder.encode(JSON.stringify({ resource, exp, ...claims })));
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(`${header}.${payload}`));
  return `${header}.${payload}.${base64url(new Uint8Array(signature))}`;
}

/** `url` signed until `exp` with the property's `secret`, by the scheme its path takes. */
export async function signUrl(url: URL, exp: number, secret: string): Promise<URL> {
  const signed = new URL(url.href);
  for (const name of SIGNATURE_PARAMS) signed.searchParams.delete(name);
  if (isV2Resource(signed.pathname)) {
    const claims = Object.fromEntries(signed.searchParams);
    signed.searchParams.set('token', await deliveryToken(signed.pathname, exp, claims, secret));
  } else {
    signed.searchParams.set('exp', String(exp));
    signed.searchParams.set('sig', await legacySignature(signed.pathname, exp, secret));
  }
  return signed;
}

/** A query that is a signature and nothing else (`?exp=…&sig=…`, `?token=…`), as the platform writes into signed files. */
const SIGNATURE_QUERY = /\?(?:(?:exp|sig|token)=[A-Za-z0-9._~%-]*(?:&|(?=#)|$))+(?=#|$)/;

/**
 * A reference (a URI written in a signed playlist or storyboard) without the signature query the platform signed it
 * with; any other query is kept, for the caller to judge. The worker signs its own fetch of that file.
 */
export function withoutSignature(reference: string): string {
  return reference.replace(SIGNATURE_QUERY, '');
}

/** The URL without any signature it carries: what is kept, compared and cached. */
export function unsigned(url: URL): URL {
  const plain = new URL(url.href);
  for (const name of SIGNATURE_PARAMS) plain.searchParams.delete(name);
  return plain;
}
