-- v1 signatures (README, "v1 signature setup"): a key's v1 signing secret is never stored. It is derived on each call,
-- HMAC-SHA256(V1_SIGNING_SECRET, key id + this salt); the salt alone is useless without the worker secret, and a new
-- salt (POST /admin/keys/<id>/v1_secret) retires the old v1 secret. NULL: the key has no v1 secret (signatures refused).
ALTER TABLE access_keys ADD COLUMN v1_secret_salt TEXT;

-- Every accepted (timestamp, nonce) of a key while its timestamp is inside the window: a replayed call is refused.
-- A row whose timestamp has left the window can never match again (the timestamp check refuses it first), so it goes.
CREATE TABLE v1_nonces (
  key_id TEXT NOT NULL,
  api_timestamp INTEGER NOT NULL,
  api_nonce TEXT NOT NULL,
  PRIMARY KEY (key_id, api_timestamp, api_nonce)
) WITHOUT ROWID;
CREATE INDEX v1_nonces_by_time ON v1_nonces (api_timestamp);
