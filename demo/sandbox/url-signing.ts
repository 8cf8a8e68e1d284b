// URL token signing, as the platform's Delivery API enforces it per property (README.md, "URL signing"):
// - file paths (videos, manifests, tracks, strips) take the legacy scheme, `?exp=<unix>&sig=<hex>` with
//   sig = md5("<path without its leading slash>:<exp>:<secret>");
// - the Delivery API's /v2/ paths (posters, thumbnails) take `?token=<JWT>`, HS256 under the same secret, whose claims
//   are `resource` (the path), `exp`, and the request's query parameters.
// A site that enforces signing refuses an unsigned request; every site refuses one signed wrongly (another secret, an
// altered path, exp or parameter) or past its exp, and serves a correctly signed one: "incorrectly signed URLs will
// always get a 403 returned and correctly signed URLs will always work". The secret is the site's: the binding
// SIGNED_SITE_SECRET for the site the seed makes for signing, one derived from it for every other site.
import type { SandboxEnv } from './env.ts';
import { HttpError } from './http.ts';
import type { Store } from './store.ts';

/** Where a site's secret comes from: the binding itself, or derived from it and the site id. */
export type SecretSource = 'SIGNED_SITE_SECRET' | 'derived';

/** The per-site setting, kept on the site's record; a site without one does not enforce, with a derived secret. */
export interface UrlSigning {
  enforce: boolean;
  secret: SecretSource;
}

export interface SiteRecord {
  id: string;
  name: string;
  url_signing?: UrlSigning;
}

export function siteSigning(store: Store, siteId: string): UrlSigning | null {
  const site = store.get<SiteRecord>('site', siteId, siteId);
  if (!site) return null;
  return site.url_signing ?? { enforce: false, secret: 'derived' };
}

/** Switches a site's enforcement; the secret stays where it comes from. */
export function setEnforcement(store: Store, siteId: string, enforce: boolean): UrlSigning | null {
  const site = store.get<SiteRecord>('site', siteId, siteId);
  if (!site) return null;
  site.url_signing = { ...(site.url_signing ?? { secret: 'derived' }), enforce };
  store.put('site', siteId, null, site);
  return site.url_signing;
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function bindingSecret(secret: string | undefined): string {
  if (!secret) throw new HttpError(500, 'server_error', 'The sandbox has no SIGNED_SITE_SECRET binding; URL signing cannot be checked.');
  return secret;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/**
 * A site's signing secret: `signedSiteSecret` (the SIGNED_SITE_SECRET binding) itself, or the lowercase hex of
 * HMAC-SHA-256 keyed with it over `url-signing:<site_id>` (whoever holds the binding can derive it; no answer names it).
 */
export async function siteSecret(signedSiteSecret: string | undefined, siteId: string, source: SecretSource): Promise<string> {
  const binding = bindingSecret(signedSiteSecret);
  if (source === 'SIGNED_SITE_SECRET') return binding;
  return hex(await crypto.subtle.sign('HMAC', await hmacKey(binding, 'sign'), encoder.encode(`url-signing:${siteId}`)));
}

export async function md5Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('MD5', encoder.encode(text)));
}

/** The legacy signature of a path (with its leading slash, as a URL's pathname is) for an expiry. */
export function legacySignature(path: string, exp: number, secret: string): Promise<string> {
  return md5Hex(`${path.replace(/^\//, '')}:${exp}:${secret}`);
}

/** `?exp=<exp>&sig=<sig>` for a path: what the URIs inside a signed playlist or storyboard carry. */
export async function legacyQuery(path: string, exp: number, secret: string): Promise<string> {
  return `?exp=${exp}&sig=${await legacySignature(path, exp, secret)}`;
}

function sameText(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

/** Why a request is refused (the 403's description), or what a signed request carried. */
export type Verdict =
  | { ok: true; exp: number | null; params: URLSearchParams }
  | { ok: false; why: string };

const refuse = (why: string): Verdict => ({ ok: false, why });

/** The legacy scheme on a file path. `params`: the query as sent (it is not signed). */
export async function checkLegacy(url: URL, secret: string, enforce: boolean, nowSeconds: number): Promise<Verdict> {
  const exps = url.searchParams.getAll('exp');
  const sigs = url.searchParams.getAll('sig');
  if (exps.length === 0 && sigs.length === 0) {
    return enforce ? refuse('This file needs a signed URL (?exp=<unix time>&sig=<md5>).') : { ok: true, exp: null, params: url.searchParams };
  }
  if (exps.length !== 1 || sigs.length !== 1) return refuse('A signed URL carries exp and sig once each.');
  const [exp, sig] = [exps[0]!, sigs[0]!];
  if (!/^[0-9]{1,12}$/.test(exp) || !/^[0-9a-f]{32}$/.test(sig)) return refuse('exp must be a unix time and sig an MD5 in lowercase hex.');
  if (!sameText(await legacySignature(url.pathname, Number(exp), secret), sig)) return refuse('The signature does not match this path and exp.');
  if (Number(exp) <= nowSeconds) return refuse('This signed URL has expired.');
  return { ok: true, exp: Number(exp), params: url.searchParams };
}

/** JWT claims that are not request parameters (RFC 7519's registered names, and the platform's `resource`). */
const NOT_PARAMETERS = new Set(['resource', 'exp', 'nbf', 'iat', 'iss', 'sub', 'aud', 'jti']);

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Signs tokens of the JWT scheme (HS256) under a secret, its key imported once: a signed Delivery API answer writes one
 * into each of its /v2/ URLs (posters, pages, recommendations), so a player follows them as it was answered.
 */
export async function jwtSigner(secret: string): Promise<(claims: Record<string, unknown>) => Promise<string>> {
  const key = await hmacKey(secret, 'sign');
  const head = base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  return async (claims) => {
    const body = base64url(encoder.encode(JSON.stringify(claims)));
    const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(`${head}.${body}`));
    return `${head}.${body}.${base64url(new Uint8Array(signature))}`;
  };
}

function base64urlBytes(part: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(part) || part.length % 4 === 1) return null;
  const binary = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function jsonObject(part: string): Record<string, unknown> | null {
  const bytes = base64urlBytes(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/**
 * The JWT scheme on a Delivery API path. The token's parameters (its claims but `resource`, `exp` and the registered
 * ones) are the request's; a query parameter besides `token` must be one of them, with the same value, or the URL is
 * altered. `params`: the parameters to serve the request with.
 */
export async function checkJwt(url: URL, secret: string, enforce: boolean, nowSeconds: number): Promise<Verdict> {
  const tokens = url.searchParams.getAll('token');
  if (tokens.length === 0) {
    return enforce ? refuse('This resource needs a signed URL (?token=<JWT>).') : { ok: true, exp: null, params: url.searchParams };
  }
  if (tokens.length !== 1) return refuse('A signed URL carries one token.');
  const parts = tokens[0]!.split('.');
  if (parts.length !== 3) return refuse('The token is not a JWT.');
  const header = jsonObject(parts[0]!);
  const payload = jsonObject(parts[1]!);
  const signature = base64urlBytes(parts[2]!);
  if (!header || !payload || !signature) return refuse('The token is not a JWT.');
  if (header.alg !== 'HS256' || (header.typ !== undefined && header.typ !== 'JWT')) return refuse('The token must be signed with HS256.');
  const signed = await crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), signature, encoder.encode(`${parts[0]}.${parts[1]}`));
  if (!signed) return refuse('The token\'s signature does not match.');
  if (payload.resource !== url.pathname) return refuse('The token was signed for another resource.');
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return refuse('The token has no exp claim.');
  if (payload.exp <= nowSeconds) return refuse('This token has expired.');
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > nowSeconds)) return refuse('This token is not valid yet.');
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(payload)) {
    if (NOT_PARAMETERS.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params.set(name, String(value));
  }
  for (const [name, value] of url.searchParams) {
    if (name === 'token') continue;
    if (params.get(name) !== value) return refuse(`The query parameter '${name}' is not the one the token carries.`);
  }
  return { ok: true, exp: payload.exp, params };
}

/** Whether the request carries the signature of its path's scheme at all (any of its parameters). */
function carriesSignature(url: URL, scheme: 'legacy' | 'jwt'): boolean {
  return scheme === 'legacy' ? url.searchParams.has('exp') || url.searchParams.has('sig') : url.searchParams.has('token');
}

/**
 * A site's verdict on a delivery request in the path's scheme: unsigned requests pass where the site does not enforce,
 * signed ones are checked on every site. `secret`: the site's, when it was needed (to sign what the answer names).
 */
export async function siteVerdict(store: Store, env: SandboxEnv, url: URL, scheme: 'legacy' | 'jwt', site: string):
  Promise<Verdict & { secret?: string }> {
  const signing = siteSigning(store, site)!;
  if (!signing.enforce && !carriesSignature(url, scheme)) return { ok: true, exp: null, params: url.searchParams };
  const secret = await siteSecret(env.SIGNED_SITE_SECRET, site, signing.secret);
  const now = Math.floor(Date.now() / 1000);
  const verdict = scheme === 'legacy'
    ? await checkLegacy(url, secret, signing.enforce, now)
    : await checkJwt(url, secret, signing.enforce, now);
  return { ...verdict, secret };
}
