/**
 * `/admin/keys`: create, list and revoke the gateway's access keys, and issue a key's v1 secret. A key's token appears
 * in exactly one response: the one that created it; a v1 secret in the one that issued it.
 */
import type { Env } from '../../env.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError } from '../../http/errors.ts';
import { noStoreJson } from '../../http/respond.ts';
import { parseNewKey } from '../access-keys.ts';
import { gatewayDb } from '../db.ts';
import { gatewayNotFound, invalid, methodNotAllowed } from '../errors.ts';
import { KeyStore } from '../key-store.ts';
import { KEY_ID, onlyParams, readJson } from './request.ts';

const store = (env: Env) => new KeyStore(gatewayDb(env));

/** `GET /admin/keys` lists them; `POST` creates one. */
export async function keysRoute({ request, env }: RequestContext): Promise<Response> {
  onlyParams(new URL(request.url), []);
  if (request.method === 'GET') return noStoreJson({ keys: await store(env).list() });
  if (request.method === 'POST') {
    const input = parseNewKey(await readJson(request));
    if (!input.ok) throw invalid(input.description);
    const { key, token, v1Secret } = await store(env).create(input.value, env.V1_SIGNING_SECRET);
    // The only time the token (and the v1 secret) is shown.
    return noStoreJson({ ...key, key: token, ...(v1Secret ? { v1_secret: v1Secret } : {}) }, 201);
  }
  throw methodNotAllowed(['GET', 'POST']);
}

/** `DELETE /admin/keys/<id>` revokes one. */
export async function keyRoute({ request, env, params }: RequestContext): Promise<Response> {
  onlyParams(new URL(request.url), []);
  if (request.method !== 'DELETE') throw methodNotAllowed(['DELETE']);
  const id = params.id!;
  if (!KEY_ID.test(id)) throw gatewayNotFound('No such key.');
  const revoked = await store(env).revoke(id);
  if (!revoked) throw gatewayNotFound('No such key.');
  return noStoreJson(revoked);
}

/** `POST /admin/keys/<id>/v1_secret` issues a live key's v1 secret, replacing the one before. */
export async function v1SecretRoute({ request, env, params }: RequestContext): Promise<Response> {
  onlyParams(new URL(request.url), []);
  if (request.method !== 'POST') throw methodNotAllowed(['POST']);
  if (!env.V1_SIGNING_SECRET) {
    throw new ApiError(409, 'v1_signing_disabled',
      'v1 signatures are off: set the V1_SIGNING_SECRET secret (wrangler secret put V1_SIGNING_SECRET) to issue v1 secrets.');
  }
  const id = params.id!;
  if (!KEY_ID.test(id)) throw gatewayNotFound('No such key.');
  const issued = await store(env).issueV1Secret(id, env.V1_SIGNING_SECRET);
  if (!issued) throw gatewayNotFound('No such live key.');
  // A new secret replaces the previous one; this is the only time it is shown.
  return noStoreJson({ ...issued.key, v1_secret: issued.v1Secret }, 201);
}
