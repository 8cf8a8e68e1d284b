/**
 * `/admin/keys`, `/admin/audit` and `/admin/sites/<site>/url-signing`: create, list and revoke access keys, issue a
 * key's v1 secret, page through the audit trail, and check a site's URL signing (signing-check.ts). Every call needs the admin token (admin-auth.ts). A key's token appears in exactly one response: the one
 * that created it; a v1 secret in the one that issued it.
 */
import { getConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { parseNewKey } from './access-keys.ts';
import { requireAdmin } from './admin-auth.ts';
import { AuditLog, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from './audit.ts';
import { ApiError } from '../http/errors.ts';
import { noStoreJson } from '../http/respond.ts';
import { gatewayNotFound, invalid, methodNotAllowed } from './errors.ts';
import { gatewayDb } from './db.ts';
import { KeyStore } from './key-store.ts';
import { readBoundedText } from './request-checks.ts';
import { checkUrlSigning } from './signing-check.ts';

const MAX_ADMIN_BODY_BYTES = 16 * 1024;
const KEY_ID = /^key_[A-Za-z0-9_-]{1,32}$/;

async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw invalid('The request body must be application/json.', 415, 'unsupported_media_type');
  const text = await readBoundedText(request, MAX_ADMIN_BODY_BYTES);
  if (!text.ok) throw invalid(text.description, text.status, text.code);
  try {
    return JSON.parse(text.value);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
}

function onlyParams(url: URL, allowed: string[]): void {
  for (const name of url.searchParams.keys()) {
    if (!allowed.includes(name)) throw invalid(`Unknown query parameter; this route accepts ${allowed.join(', ') || 'none'}.`);
  }
}

export async function handleAdmin(request: Request, env: Env, path: string): Promise<Response> {
  await requireAdmin(request, env.ADMIN_TOKEN);
  const url = new URL(request.url);
  const keys = new KeyStore(gatewayDb(env));
  const segments = path.replace(/\/$/, '').split('/').slice(2); // after '/admin'

  if (segments[0] === 'keys' && segments.length === 1) {
    onlyParams(url, []);
    if (request.method === 'GET') return noStoreJson({ keys: await keys.list() });
    if (request.method === 'POST') {
      const input = parseNewKey(await readJson(request));
      if (!input.ok) throw invalid(input.description);
      const { key, token, v1Secret } = await keys.create(input.value, env.V1_SIGNING_SECRET);
      // The only time the token (and the v1 secret) is shown.
      return noStoreJson({ ...key, key: token, ...(v1Secret ? { v1_secret: v1Secret } : {}) }, 201);
    }
    throw methodNotAllowed(['GET', 'POST']);
  }

  if (segments[0] === 'keys' && segments.length === 2) {
    onlyParams(url, []);
    if (request.method !== 'DELETE') throw methodNotAllowed(['DELETE']);
    const id = segments[1]!;
    if (!KEY_ID.test(id)) throw gatewayNotFound('No such key.');
    const revoked = await keys.revoke(id);
    if (!revoked) throw gatewayNotFound('No such key.');
    return noStoreJson(revoked);
  }

  if (segments[0] === 'keys' && segments.length === 3 && segments[2] === 'v1_secret') {
    onlyParams(url, []);
    if (request.method !== 'POST') throw methodNotAllowed(['POST']);
    if (!env.V1_SIGNING_SECRET) {
      throw new ApiError(409, 'v1_signing_disabled',
        'v1 signatures are off: set the V1_SIGNING_SECRET secret (wrangler secret put V1_SIGNING_SECRET) to issue v1 secrets.');
    }
    const id = segments[1]!;
    if (!KEY_ID.test(id)) throw gatewayNotFound('No such key.');
    const issued = await keys.issueV1Secret(id, env.V1_SIGNING_SECRET);
    if (!issued) throw gatewayNotFound('No such live key.');
    // A new secret replaces the previous one; this is the only time it is shown.
    return noStoreJson({ ...issued.key, v1_secret: issued.v1Secret }, 201);
  }

  if (segments[0] === 'audit' && segments.length === 1) {
    if (request.method !== 'GET') throw methodNotAllowed(['GET']);
    onlyParams(url, ['limit', 'cursor', 'key_id']);
    const limitText = url.searchParams.get('limit');
    const cursorText = url.searchParams.get('cursor');
    const keyId = url.searchParams.get('key_id');
    if (limitText !== null && !/^\d{1,3}$/.test(limitText)) throw invalid(`limit must be 1 to ${MAX_AUDIT_PAGE}.`);
    const limit = limitText === null ? DEFAULT_AUDIT_PAGE : Number(limitText);
    if (limit < 1 || limit > MAX_AUDIT_PAGE) throw invalid(`limit must be 1 to ${MAX_AUDIT_PAGE}.`);
    if (cursorText !== null && !/^[1-9]\d{0,15}$/.test(cursorText)) throw invalid('cursor is not valid.');
    if (keyId !== null && !KEY_ID.test(keyId)) throw invalid('key_id is not valid.');
    return noStoreJson(await new AuditLog(gatewayDb(env)).page({
      limit, before: cursorText === null ? null : Number(cursorText), keyId,
    }));
  }

  if (segments[0] === 'sites' && segments.length === 3 && segments[2] === 'url-signing') {
    if (request.method !== 'GET') throw methodNotAllowed(['GET']);
    onlyParams(url, ['media']);
    return noStoreJson(await checkUrlSigning(env, getConfig(env), segments[1]!, url.searchParams.get('media')));
  }

  throw gatewayNotFound();
}
