-- The operator console (worker/gateway/admin-session.ts): failed sign-ins per address and fixed window, the address as
-- the worker's salted hash (never the address). Rows of ended windows are deleted by the next sign-in attempt.
-- IF NOT EXISTS throughout: re-applying this migration over a database that already has its objects changes nothing.
CREATE TABLE IF NOT EXISTS admin_sign_in_failures (
  address_hash TEXT NOT NULL,
  -- Epoch seconds, a multiple of the window's length.
  window_start INTEGER NOT NULL,
  -- Attempts counted in the window (a successful sign-in deletes its address's rows, so what stays is failures).
  failures INTEGER NOT NULL,
  PRIMARY KEY (address_hash, window_start)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS admin_sign_in_failures_by_window ON admin_sign_in_failures (window_start);

-- The audit trail filtered by site (GET /admin/audit?site=), newest first.
CREATE INDEX IF NOT EXISTS audit_log_by_site ON audit_log (site, id);
