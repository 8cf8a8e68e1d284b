/**
 * The audit trail of writes: one row per write a key attempted (refused, replayed or forwarded), newest first when
 * paged. It holds ids and routes, never bodies or keys.
 */
export interface AuditEntry {
  id: number;
  at: string;
  key_id: string;
  method: string;
  route: string;
  path: string;
  site: string | null;
  status: number;
  idempotency_key: string | null;
  replayed: boolean;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;

interface AuditRow extends Omit<AuditEntry, 'replayed'> {
  replayed: number;
}

export class AuditLog {
  constructor(private readonly db: D1Database) {}

  async record(entry: NewAuditEntry): Promise<void> {
    await this.db
      .prepare(`INSERT INTO audit_log (at, key_id, method, route, path, site, status, idempotency_key, replayed)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .bind(new Date().toISOString(), entry.key_id, entry.method, entry.route, entry.path, entry.site, entry.status,
        entry.idempotency_key, entry.replayed ? 1 : 0)
      .run();
  }

  /** Newest first; `before` is the `next_cursor` of the previous page. */
  async page(options: { limit: number; before: number | null; keyId: string | null }): Promise<{
    entries: AuditEntry[];
    next_cursor: string | null;
  }> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (options.before !== null) {
      where.push('id < ?');
      values.push(options.before);
    }
    if (options.keyId !== null) {
      where.push('key_id = ?');
      values.push(options.keyId);
    }
    const sql = `SELECT id, at, key_id, method, route, path, site, status, idempotency_key, replayed FROM audit_log
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    const { results } = await this.db.prepare(sql).bind(...values, options.limit + 1).all<AuditRow>();
    const rows = results.slice(0, options.limit);
    return {
      entries: rows.map((row) => ({ ...row, replayed: row.replayed === 1 })),
      next_cursor: results.length > options.limit && rows.length > 0 ? String(rows[rows.length - 1]!.id) : null,
    };
  }
}
