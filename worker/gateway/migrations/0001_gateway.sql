-- The gateway's state: access keys (hashes only), idempotent outcomes of writes, and the audit trail of writes.

CREATE TABLE access_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- SHA-256 (hex) of the whole token; the token itself is never stored.
  token_sha256 TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,      -- JSON array of "read" / "write"
  sites TEXT NOT NULL,       -- JSON array of site ids, or ["*"]
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE idempotent_outcomes (
  key_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  -- SHA-256 of the canonical JSON of the request body: a retry must send the same body.
  body_sha256 TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
  status INTEGER,
  content_type TEXT,
  body TEXT,
  -- Milliseconds since the epoch: when the reservation was taken (pending) or renewed.
  created_at INTEGER NOT NULL,
  PRIMARY KEY (key_id, idempotency_key, method, path)
);
CREATE INDEX idempotent_outcomes_by_age ON idempotent_outcomes (created_at);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  key_id TEXT NOT NULL,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  path TEXT NOT NULL,
  site TEXT,
  status INTEGER NOT NULL,
  idempotency_key TEXT,
  -- 1 when the answer was a stored outcome replayed without an upstream call.
  replayed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX audit_log_by_key ON audit_log (key_id, id);
