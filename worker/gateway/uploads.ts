/**
 * Uploads through the gateway. Creating (or re-uploading) a media with `upload.method` `direct` answers an upload
 * link, which the caller PUTs the file to directly: it is pre-signed and carries no credential of ours. `multipart`
 * answers an `upload_id` and an `upload_token`; the official clients then call `GET uploads/<id>/parts` and
 * `PUT uploads/<id>/complete` with `Authorization: Bearer <upload_token>`. The gateway remembers which access key and
 * site each upload it passed on belongs to (D1 holds the token's hash only), and holds those calls to that key's
 * `write` scope on that site, looked up afresh each time like any key, so a revocation stops the upload too.
 */
import type { Env } from '../env.ts';
import { bearerToken, sha256Hex, type AccessKey } from './access-keys.ts';
import { forbidden, unauthorized } from './errors.ts';
import { gatewayDb } from './db.ts';
import { KeyStore } from './key-store.ts';
import type { MatchedRoute } from './v2-routes.ts';

const STARTS_UPLOADS = new Set(['media.create', 'media.reupload']);

/** After a forwarded create or re-upload: remembers the multipart upload the answer started, if any. */
export async function rememberUpload(db: D1Database, key: AccessKey, route: MatchedRoute, status: number, body: string): Promise<void> {
  if (!STARTS_UPLOADS.has(route.spec.name) || status < 200 || status > 299) return;
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return;
  }
  const { upload_id: uploadId, upload_token: uploadToken } = (answer ?? {}) as Record<string, unknown>;
  if (typeof uploadId !== 'string' || typeof uploadToken !== 'string' || !uploadId || !uploadToken) return;
  await db
    .prepare('INSERT OR REPLACE INTO upload_sessions (upload_id, key_id, site, token_sha256, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(uploadId, key.id, route.site, await sha256Hex(uploadToken), new Date().toISOString())
    .run();
}

export interface UploadCaller {
  key: AccessKey;
  site: string;
  /** `Bearer <upload_token>`, forwarded as the upstream credential of this call. */
  authorization: string;
}

/**
 * The caller of an upload route: the upload token must be the one the platform issued for this upload through the
 * gateway, and the key that started it must still be live. Its scope is checked by the call itself (`write` on the
 * upload's site); a key that lost it gets 403.
 */
export async function authenticateUpload(request: Request, env: Env, uploadId: string): Promise<UploadCaller> {
  const token = bearerToken(request);
  const refused = unauthorized('This upload call needs the upload_token its media was created with (Authorization: Bearer <upload_token>).');
  if (!token) throw refused;
  const db = gatewayDb(env);
  const row = await db
    .prepare('SELECT key_id, site, token_sha256 FROM upload_sessions WHERE upload_id = ?')
    .bind(uploadId)
    .first<{ key_id: string; site: string; token_sha256: string }>();
  if (!row || row.token_sha256 !== await sha256Hex(token)) throw refused;
  const key = await new KeyStore(db).byId(row.key_id);
  if (!key) throw forbidden('The access key that started this upload has been revoked.');
  return { key, site: row.site, authorization: `Bearer ${token}` };
}
