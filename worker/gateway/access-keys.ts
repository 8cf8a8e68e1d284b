/**
 * reelgate access keys: what a team's server presents as `Authorization: Bearer rg_...`. A key is shown once, at
 * creation; only its SHA-256 is stored, so a leaked database gives no usable key. Scopes say what a key may do (`read`,
 * `write`) and on which sites (`*` for all).
 */
import type { AccessKey as ListedKey } from '../contract/admin-api.ts';
import type { Access } from './v2-routes.ts';
import { ID_PATTERN } from './v2-routes.ts';

export const KEY_PREFIX = 'rg_';
export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];
export const ALL_SITES = '*';
export const MAX_KEY_NAME_LENGTH = 100;
export const MAX_SITES_PER_KEY = 100;
/** `rg_` + 32 random bytes in base64url (43 characters). */
const TOKEN_SHAPE = /^rg_[A-Za-z0-9_-]{43}$/;

/** An access key as stored and listed (contract/admin-api.ts), its scopes the ones the gateway knows. */
export interface AccessKey extends ListedKey {
  scopes: Scope[];
}

export interface NewKeyInput {
  name: string;
  scopes: Scope[];
  sites: string[];
}

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new secret token and the public id it is listed under. */
export function generateToken(): { token: string; id: string } {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const id = crypto.getRandomValues(new Uint8Array(9));
  return { token: `${KEY_PREFIX}${base64url(secret)}`, id: `key_${base64url(id)}` };
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** The bearer token of a request, or null when the header is absent or not `Bearer <token>`. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (!header) return null;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Checks the body of `POST /admin/keys`; returns the clean input or the reason it is refused. */
export function parseNewKey(body: unknown): { ok: true; value: NewKeyInput } | { ok: false; description: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, description: 'The body must be a JSON object {name, scopes, sites}.' };
  }
  const { name, scopes, sites, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return { ok: false, description: 'Only name, scopes and sites may be given.' };
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_KEY_NAME_LENGTH
    || /[\u0000-\u001f\u007f]/.test(name)) {
    return { ok: false, description: `name must be 1 to ${MAX_KEY_NAME_LENGTH} printable characters.` };
  }
  if (!Array.isArray(scopes) || scopes.length === 0
    || !scopes.every((s) => (SCOPES as readonly unknown[]).includes(s))) {
    return { ok: false, description: 'scopes must be a non-empty list of "read" and "write".' };
  }
  if (!Array.isArray(sites) || sites.length === 0 || sites.length > MAX_SITES_PER_KEY
    || !sites.every((s) => typeof s === 'string' && (s === ALL_SITES || ID_PATTERN.test(s)))) {
    return { ok: false, description: 'sites must be a non-empty list of site ids, or ["*"] for every site.' };
  }
  if (sites.includes(ALL_SITES) && sites.length > 1) {
    return { ok: false, description: 'sites is either ["*"] or a list of site ids, not both.' };
  }
  return {
    ok: true,
    value: { name: name.trim(), scopes: [...new Set(scopes as Scope[])].sort(), sites: [...new Set(sites as string[])] },
  };
}

export type Permission = { ok: true } | { ok: false; description: string };

/** May this key do `access` on `site`? Scopes are independent: `write` does not imply `read`. */
export function permits(key: Pick<AccessKey, 'scopes' | 'sites'>, access: Access, site: string): Permission {
  if (!key.scopes.includes(access)) {
    return { ok: false, description: `This key lacks the "${access}" scope.` };
  }
  if (!key.sites.includes(ALL_SITES) && !key.sites.includes(site)) {
    return { ok: false, description: 'This key may not access this site.' };
  }
  return { ok: true };
}
