/**
 * The audit trail of writes: one row per write a key attempted (refused, replayed or forwarded), newest first when
 * paged. It holds ids and routes, never bodies or keys.
 */
import type { AuditEntry, AuditPage } from '../contract/admin-api.ts';
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;

interface AuditRow extends Omit<AuditEntry, 'replayed'> {
  replayed: number;
}

/** `status`: one status (201), or a class (`4xx`: 400 to 499). */
export type StatusFilter = { exact: number } | { from: number; below: number };

/** What a page may be narrowed to; each filter is checked by its reader (admin/audit.ts), null when not asked. */
export interface AuditFilters {
  keyId: string | null;
  site: string | null;
  status: StatusFilter | null;
  /** ISO 8601 times as stored (`Date#toISOString`): `since` inclusive, `until` exclusive. */
  since: string | null;
  until: string | null;
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

  /** Newest first; `before` is the `next_cursor` of the previous page (the same filters give the next one). */
  async page(options: { limit: number; before: number | null } & Partial<AuditFilters>): Promise<AuditPage> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (options.before !== null) {
      where.push('id < ?');
      values.push(options.before);
    }
    if (options.keyId != null) {
      where.push('key_id = ?');
      values.push(options.keyId);
    }
    if (options.site != null) {
      where.push('site = ?');
      values.push(options.site);
    }
    if (options.status != null) {
      if ('exact' in options.status) {
        where.push('status = ?');
        values.push(options.status.exact);
      } else {
        where.push('status >= ? AND status < ?');
        values.push(options.status.from, options.status.below);
      }
    }
    // `at` is always `toISOString()` (UTC, milliseconds, `Z`), so its text orders as its time does.
    if (options.since != null) {
      where.push('at >= ?');
      values.push(options.since);
    }
    if (options.until != null) {
      where.push('at < ?');
      values.push(options.until);
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
