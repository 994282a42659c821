-- People a workshop manages itself, and the deployment's operator. All of it is the directory's
-- (workshops, people, credentials); a workshop's own data stays in its tables.

-- A person a boss deactivated: signs in no more, and every credential of theirs ended with it;
-- their records and audit entries stay. Setting it back to NULL undoes it.
ALTER TABLE users ADD COLUMN deactivated_at TEXT;

-- One-time links that let a person set their password (a new person without one, or a reset).
-- Only the SHA-256 of the link's token is stored; a link works once and until expires_at, and a
-- newer link for the same person replaces it.
CREATE TABLE password_links (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL
);
CREATE INDEX password_links_user ON password_links(user_id);

-- The deployment's operator keys: a credential outside every workshop (invite codes, the list of
-- workshops), never accepted where a workshop's key is, nor the other way round. Stored as the
-- SHA-256 of the key, with a short prefix in clear, as API keys are.
CREATE TABLE operator_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at TEXT,
  revoked_at TEXT
);

-- One-time invite codes for sign-up when SIGNUP = "invite". Only the code's SHA-256 is stored; the
-- workshop that used it is noted, and a used, revoked or expired code signs nobody up.
CREATE TABLE invite_codes (
  id TEXT PRIMARY KEY,
  code_hash TEXT NOT NULL UNIQUE,
  note TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL,
  used_at TEXT,
  used_by_tenant TEXT REFERENCES tenants(id) ON DELETE SET NULL,
  revoked_at TEXT
);
CREATE INDEX invite_codes_created ON invite_codes(created_at);
