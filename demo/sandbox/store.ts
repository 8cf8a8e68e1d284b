// The platform's state in the Durable Object's SQLite database: one row per resource, its JSON body beside the keys
// the routes look it up by. Lists are small (hundreds), so filtering and sorting happen in code over parsed rows.

export type Kind = 'site' | 'media' | 'media_rendition' | 'original' | 'text_track' | 'thumbnail' | 'playlist' | 'player' | 'upload';

export interface Stored {
  id: string;
}

export class Store {
  constructor(private readonly sql: SqlStorage) {}

  migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS docs (
      kind TEXT NOT NULL, id TEXT NOT NULL, site TEXT NOT NULL, parent TEXT, body TEXT NOT NULL,
      PRIMARY KEY (kind, id))`);
    this.sql.exec('CREATE INDEX IF NOT EXISTS docs_by_owner ON docs (kind, site, parent)');
    this.sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    this.sql.exec('CREATE TABLE IF NOT EXISTS rate_hits (bucket TEXT NOT NULL, at INTEGER NOT NULL)');
    this.sql.exec('CREATE INDEX IF NOT EXISTS rate_hits_by_bucket ON rate_hits (bucket, at)');
  }

  /** Drops every resource, rate window and control value. */
  wipe(): void {
    this.sql.exec('DELETE FROM docs');
    this.sql.exec('DELETE FROM meta');
    this.sql.exec('DELETE FROM rate_hits');
  }

  get<T extends Stored>(kind: Kind, site: string, id: string): T | null {
    const row = this.sql.exec<{ body: string }>('SELECT body FROM docs WHERE kind = ? AND id = ? AND site = ?', kind, id, site)
      .toArray()[0];
    return row ? (JSON.parse(row.body) as T) : null;
  }

  /** Every resource of a kind in a site, or (with `parent`) those belonging to one media. */
  list<T extends Stored>(kind: Kind, site: string, parent?: string): T[] {
    const cursor = parent === undefined
      ? this.sql.exec<{ body: string }>('SELECT body FROM docs WHERE kind = ? AND site = ?', kind, site)
      : this.sql.exec<{ body: string }>('SELECT body FROM docs WHERE kind = ? AND site = ? AND parent = ?', kind, site, parent);
    return cursor.toArray().map((row) => JSON.parse(row.body) as T);
  }

  /** A resource by id in whichever site holds it (delivery URLs carry no site). */
  find<T extends Stored>(kind: Kind, id: string): { site: string; doc: T } | null {
    const row = this.sql.exec<{ site: string; body: string }>('SELECT site, body FROM docs WHERE kind = ? AND id = ?', kind, id)
      .toArray()[0];
    return row ? { site: row.site, doc: JSON.parse(row.body) as T } : null;
  }

  sites(): string[] {
    return this.sql.exec<{ id: string }>("SELECT id FROM docs WHERE kind = 'site' ORDER BY id").toArray().map((row) => row.id);
  }

  put(kind: Kind, site: string, parent: string | null, doc: Stored): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO docs (kind, id, site, parent, body) VALUES (?, ?, ?, ?, ?)',
      kind, doc.id, site, parent, JSON.stringify(doc),
    );
  }

  delete(kind: Kind, site: string, id: string): void {
    this.sql.exec('DELETE FROM docs WHERE kind = ? AND id = ? AND site = ?', kind, id, site);
  }

  /** Deletes everything a media owns (renditions, originals, text tracks, thumbnails, uploads), or only `kinds` of it. */
  deleteChildren(site: string, parent: string, kinds?: readonly Kind[]): void {
    if (kinds === undefined) {
      this.sql.exec("DELETE FROM docs WHERE site = ? AND parent = ? AND kind != 'media'", site, parent);
      return;
    }
    for (const kind of kinds) this.sql.exec('DELETE FROM docs WHERE site = ? AND parent = ? AND kind = ?', site, parent, kind);
  }

  getMeta<T>(key: string): T | null {
    const row = this.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  setMeta(key: string, value: unknown): void {
    this.sql.exec('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', key, JSON.stringify(value));
  }

  deleteMeta(key: string): void {
    this.sql.exec('DELETE FROM meta WHERE key = ?', key);
  }

  // ---- sliding-window rate limiting: one row per accepted call

  /**
   * How many calls `bucket` had accepted since `since` (ms), and when the oldest of them was; rows older than that are
   * pruned on the way. Counted, not read: under a high test limit the window holds thousands of calls.
   */
  rateHits(since: number, bucket: string): { count: number; oldest: number | null } {
    this.sql.exec('DELETE FROM rate_hits WHERE at <= ?', since);
    return this.sql.exec<{ count: number; oldest: number | null }>(
      'SELECT COUNT(*) AS count, MIN(at) AS oldest FROM rate_hits WHERE bucket = ?', bucket).one();
  }

  addRateHit(bucket: string, at: number): void {
    this.sql.exec('INSERT INTO rate_hits (bucket, at) VALUES (?, ?)', bucket, at);
  }

  clearRateHits(): void {
    this.sql.exec('DELETE FROM rate_hits');
  }
}
