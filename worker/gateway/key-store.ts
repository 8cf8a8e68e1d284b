/**
 * Access keys in D1. Every request looks its key up afresh (one indexed read), so a revocation is effective at once:
 * there is no cache to outlive it.
 */
import { generateToken, looksLikeToken, sha256Hex, type AccessKey, type NewKeyInput, type Scope } from './access-keys.ts';
import { deriveV1Secret, newV1Salt } from './v1/v1-signature.ts';

interface KeyRow {
  id: string;
  name: string;
  scopes: string;
  sites: string;
  created_at: string;
  revoked_at: string | null;
}

function fromRow(row: KeyRow): AccessKey {
  return {
    id: row.id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as Scope[],
    sites: JSON.parse(row.sites) as string[],
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

const COLUMNS = 'id, name, scopes, sites, created_at, revoked_at';

export class KeyStore {
  constructor(private readonly db: D1Database) {}

  /**
   * Creates a key; the token is returned here and never again. With a v1 signing secret (V1_SIGNING_SECRET) the key also
   * gets a v1 secret for signed `/v1` calls, likewise shown only now.
   */
  async create(input: NewKeyInput, v1SigningSecret?: string): Promise<{ key: AccessKey; token: string; v1Secret?: string }> {
    const { token, id } = generateToken();
    const key: AccessKey = { id, ...input, created_at: new Date().toISOString(), revoked_at: null };
    const salt = v1SigningSecret ? newV1Salt() : null;
    await this.db
      .prepare('INSERT INTO access_keys (id, name, token_sha256, scopes, sites, created_at, v1_secret_salt) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(id, key.name, await sha256Hex(token), JSON.stringify(key.scopes), JSON.stringify(key.sites), key.created_at, salt)
      .run();
    if (!v1SigningSecret || !salt) return { key, token };
    return { key, token, v1Secret: await deriveV1Secret(v1SigningSecret, id, salt) };
  }

  /** The live key with this id and the salt of its v1 secret (null when it has none), or null (unknown or revoked). */
  async forSignature(id: string): Promise<{ key: AccessKey; salt: string | null } | null> {
    const row = await this.db
      .prepare(`SELECT ${COLUMNS}, v1_secret_salt FROM access_keys WHERE id = ? AND revoked_at IS NULL`)
      .bind(id)
      .first<KeyRow & { v1_secret_salt: string | null }>();
    return row ? { key: fromRow(row), salt: row.v1_secret_salt } : null;
  }

  /**
   * Gives a live key a new v1 secret (a new salt: the previous v1 secret stops working at once) and returns it; null
   * when there is no such live key. Shown once, like the token.
   */
  async issueV1Secret(id: string, v1SigningSecret: string): Promise<{ key: AccessKey; v1Secret: string } | null> {
    const salt = newV1Salt();
    const result = await this.db
      .prepare('UPDATE access_keys SET v1_secret_salt = ? WHERE id = ? AND revoked_at IS NULL')
      .bind(salt, id)
      .run();
    if (result.meta.changes !== 1) return null;
    const row = await this.db.prepare(`SELECT ${COLUMNS} FROM access_keys WHERE id = ?`).bind(id).first<KeyRow>();
    if (!row) return null;
    return { key: fromRow(row), v1Secret: await deriveV1Secret(v1SigningSecret, id, salt) };
  }

  /** The live key a token belongs to, or null (unknown, malformed or revoked). */
  async authenticate(token: string): Promise<AccessKey | null> {
    if (!looksLikeToken(token)) return null;
    const row = await this.db
      .prepare(`SELECT ${COLUMNS} FROM access_keys WHERE token_sha256 = ? AND revoked_at IS NULL`)
      .bind(await sha256Hex(token))
      .first<KeyRow>();
    return row ? fromRow(row) : null;
  }

  /** The live key with this id, or null (unknown or revoked). */
  async byId(id: string): Promise<AccessKey | null> {
    const row = await this.db
      .prepare(`SELECT ${COLUMNS} FROM access_keys WHERE id = ? AND revoked_at IS NULL`)
      .bind(id)
      .first<KeyRow>();
    return row ? fromRow(row) : null;
  }

  async list(): Promise<AccessKey[]> {
    const { results } = await this.db.prepare(`SELECT ${COLUMNS} FROM access_keys ORDER BY created_at, id`).all<KeyRow>();
    return results.map(fromRow);
  }

  /** Revokes a key and returns it; null when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<AccessKey | null> {
    await this.db
      .prepare('UPDATE access_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .bind(new Date().toISOString(), id)
      .run();
    const row = await this.db.prepare(`SELECT ${COLUMNS} FROM access_keys WHERE id = ?`).bind(id).first<KeyRow>();
    return row ? fromRow(row) : null;
  }
}
