/**
 * Idempotent writes. The first request under an `Idempotency-Key` reserves the slot (an atomic insert, so of two
 * concurrent duplicates only one goes upstream), then stores its outcome; a retry gets that outcome back without an
 * upstream call. The slot is per access key, method and path; a retry with another body is refused (422), a retry
 * while the first is still running is told to wait (409). Outcomes are kept for 24 hours.
 *
 * Only a completed answer is an outcome (`isCompletedAnswer`): a 2xx, or a 4xx the platform decided. A 5xx, a 408,
 * 425 or 429, a timeout, a network failure or a budget refusal says nothing about whether the write should happen, so
 * the reservation is released and a retry under the same key goes upstream again. A reservation is held by its lease
 * (`created_at`), so a request whose lease was taken over after `PENDING_LEASE_MS` can neither complete nor release
 * the new holder's reservation.
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
  /** `lease` identifies this reservation to `complete` and `release`. */
  | { kind: 'reserved'; lease: number }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

/** 4xx answers that ask for a retry instead of deciding the request. */
const RETRY_4XX = new Set([408, 425, 429]);

/**
 * Whether an upstream status is a completed answer, kept and replayed: a 2xx, or a 4xx the platform decided (not 408,
 * 425 or 429). Anything else (5xx, 1xx/3xx) is no outcome: the key is released for a retry.
 */
export function isCompletedAnswer(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && !RETRY_4XX.has(status));
}

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
    if (inserted.meta.changes === 1) return { kind: 'reserved', lease: now };

    const [where, values] = this.where(slot);
    const row = await this.db
      .prepare(`SELECT body_sha256, state, status, content_type, body, created_at FROM idempotent_outcomes WHERE ${where}`)
      .bind(...values)
      .first<OutcomeRow>();
    if (!row) return this.reserve(slot, now); // deleted between the two statements: try once more
    if (row.body_sha256 !== slot.bodySha256) return { kind: 'mismatch' };
    if (row.state === 'done' && !isCompletedAnswer(row.status ?? 500)) {
      // Stored before only completed answers were kept (a 5xx): no outcome, so the key is free again.
      await this.db.prepare(`DELETE FROM idempotent_outcomes WHERE ${where} AND state = 'done' AND created_at = ?`)
        .bind(...values, row.created_at).run();
      return this.reserve(slot, now);
    }
    if (row.state === 'done') {
      return { kind: 'replay', outcome: { status: row.status ?? 500, contentType: row.content_type, body: row.body ?? '' } };
    }
    if (row.created_at < now - PENDING_LEASE_MS) {
      const taken = await this.db
        .prepare(`UPDATE idempotent_outcomes SET created_at = ? WHERE ${where} AND state = 'pending' AND created_at = ?`)
        .bind(now, ...values, row.created_at)
        .run();
      if (taken.meta.changes === 1) return { kind: 'reserved', lease: now };
    }
    return { kind: 'in_progress' };
  }

  /** Stores the completed answer of the reservation `lease` (nothing when another request has taken it over). */
  async complete(slot: IdempotencySlot, lease: number, outcome: StoredOutcome): Promise<void> {
    const [where, values] = this.where(slot);
    await this.db
      .prepare(`UPDATE idempotent_outcomes SET state = 'done', status = ?, content_type = ?, body = ?
        WHERE ${where} AND state = 'pending' AND created_at = ?`)
      .bind(outcome.status, outcome.contentType, outcome.body, ...values, lease)
      .run();
  }

  /**
   * Gives the reservation `lease` back when no completed answer came, so a retry can go through. The row is deleted,
   * so the next request claims the key with the same atomic insert as the first: of concurrent retries one goes up.
   */
  async release(slot: IdempotencySlot, lease: number): Promise<void> {
    const [where, values] = this.where(slot);
    await this.db.prepare(`DELETE FROM idempotent_outcomes WHERE ${where} AND state = 'pending' AND created_at = ?`)
      .bind(...values, lease).run();
  }
}
