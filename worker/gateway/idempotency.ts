/**
 * Idempotent writes. The first request under an `Idempotency-Key` reserves the slot (an atomic insert, so of two
 * concurrent duplicates only one goes upstream), then stores its outcome; a retry gets that outcome back without an
 * upstream call. The slot is per access key, method and path; a retry with another body is refused (422), a retry
 * while the first is still running is told to wait (409). Outcomes are kept for 24 hours.
 */
import { sha256Hex } from './access-keys.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A reservation whose request never finished (the isolate died) may be taken over after this long. */
export const PENDING_LEASE_MS = 60_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencySlot {
  keyId: string;
  idempotencyKey: string;
  method: string;
  path: string;
  bodySha256: string;
}

export interface StoredOutcome {
  status: number;
  contentType: string | null;
  body: string;
}

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

/** A valid header value (1 to 255 visible ASCII characters), null when absent, or 'invalid'. */
export function readIdempotencyKey(request: Request): string | null | 'invalid' {
  const value = request.headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return null;
  return KEY_SHAPE.test(value) ? value : 'invalid';
}

/** JSON with object keys sorted, so key order and whitespace do not make two equal bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value).sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export async function bodyFingerprint(body: unknown): Promise<string> {
  return sha256Hex(body === undefined ? '' : canonicalJson(body));
}

interface OutcomeRow {
  body_sha256: string;
  state: 'pending' | 'done';
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: number;
}

export class IdempotencyStore {
  constructor(private readonly db: D1Database) {}

  private where(slot: IdempotencySlot): [string, unknown[]] {
    return ['key_id = ? AND idempotency_key = ? AND method = ? AND path = ?',
      [slot.keyId, slot.idempotencyKey, slot.method, slot.path]];
  }

  async reserve(slot: IdempotencySlot, now = Date.now()): Promise<Reservation> {
    // Expired outcomes go first, so an old key may be used again.
    await this.db.prepare('DELETE FROM idempotent_outcomes WHERE created_at < ?').bind(now - RETENTION_MS).run();
    const inserted = await this.db
      .prepare(`INSERT INTO idempotent_outcomes (key_id, idempotency_key, method, path, body_sha256, state, created_at)
        VALUES (?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING`)
      .bind(slot.keyId, slot.idempotencyKey, slot.method, slot.path, slot.bodySha256, now)
      .run();
    if (inserted.meta.changes === 1) return { kind: 'reserved' };

    const [where, values] = this.where(slot);
    const row = await this.db
      .prepare(`SELECT body_sha256, state, status, content_type, body, created_at FROM idempotent_outcomes WHERE ${where}`)
      .bind(...values)
      .first<OutcomeRow>();
    if (!row) return this.reserve(slot, now); // deleted between the two statements: try once more
    if (row.body_sha256 !== slot.bodySha256) return { kind: 'mismatch' };
    if (row.state === 'done') {
      return { kind: 'replay', outcome: { status: row.status ?? 500, contentType: row.content_type, body: row.body ?? '' } };
    }
    if (row.created_at < now - PENDING_LEASE_MS) {
      const taken = await this.db
        .prepare(`UPDATE idempotent_outcomes SET created_at = ? WHERE ${where} AND state = 'pending' AND created_at = ?`)
        .bind(now, ...values, row.created_at)
        .run();
      if (taken.meta.changes === 1) return { kind: 'reserved' };
    }
    return { kind: 'in_progress' };
  }

  /** Stores the outcome of a reserved slot. */
  async complete(slot: IdempotencySlot, outcome: StoredOutcome): Promise<void> {
    const [where, values] = this.where(slot);
    await this.db
      .prepare(`UPDATE idempotent_outcomes SET state = 'done', status = ?, content_type = ?, body = ? WHERE ${where}`)
      .bind(outcome.status, outcome.contentType, outcome.body, ...values)
      .run();
  }

  /** Gives a reserved slot back when the upstream never executed the call, so a retry can go through. */
  async release(slot: IdempotencySlot): Promise<void> {
    const [where, values] = this.where(slot);
    await this.db.prepare(`DELETE FROM idempotent_outcomes WHERE ${where} AND state = 'pending'`).bind(...values).run();
  }
}
