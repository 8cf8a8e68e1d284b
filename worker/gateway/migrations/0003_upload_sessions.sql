-- Multipart uploads started through the gateway: which access key and site an upload belongs to, so the calls that
-- carry the upload's own token (GET uploads/<id>/parts, PUT uploads/<id>/complete) are held to that key's scope.

CREATE TABLE upload_sessions (
  upload_id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  site TEXT NOT NULL,
  -- SHA-256 (hex) of the upload token the platform issued; the token itself is never stored.
  token_sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL
);
