-- Web sign-in: a username and a PBKDF2 password hash on users who sign in in the browser.
ALTER TABLE users ADD COLUMN username TEXT;
ALTER TABLE users ADD COLUMN password_hash TEXT;
CREATE UNIQUE INDEX users_username ON users(username) WHERE username IS NOT NULL;

-- Browser sessions. Only the SHA-256 of the cookie's token is stored, as with API keys.
CREATE TABLE web_sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions(user_id, expires_at);

-- Sign-in attempts per username and per client address in a fixed window; counted before the
-- password is checked, so concurrent guesses each take a slot.
CREATE TABLE sign_in_attempts (
  subject TEXT PRIMARY KEY,
  window_started_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL
);

-- One chat is one user's conversation; its id is chosen by the browser, so every read checks the owner.
CREATE TABLE chats (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX chats_owner_updated ON chats(tenant_id, user_id, updated_at, id);

-- Messages in the AI SDK's UI message shape: role and parts (JSON), in order by seq.
CREATE TABLE chat_messages (
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  parts TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (chat_id, id),
  UNIQUE (chat_id, seq)
);
