-- Clients a person allowed to reach /mcp for them by OAuth. The tokens themselves live in the
-- OAUTH_KV namespace (hashed, by @cloudflare/workers-oauth-provider); this row is what a person
-- sees in the settings, and what every request checks, so a revocation holds at the next request
-- however long KV takes to forget the grant elsewhere.
CREATE TABLE oauth_connections (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL,
  client_name TEXT NOT NULL,
  redirect_host TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_connections_user ON oauth_connections(user_id, client_id);
CREATE INDEX oauth_connections_tenant ON oauth_connections(tenant_id, created_at);
