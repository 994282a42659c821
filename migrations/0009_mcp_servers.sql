-- External MCP servers a workshop registers. Header values are stored only as AES-GCM ciphertext
-- (key from the MCP_SECRETS_KEY secret, the row's id and tenant as associated data); their names
-- are kept in clear so a list can show them. The tool list is cached here with when it was
-- fetched, and health (last success, last error, tool count, latency) is updated on every contact.
-- A server that signs in through OAuth keeps its client registration, tokens and PKCE verifier in
-- oauth_sealed (sealed like the headers); a sign-in in progress is found by the SHA-256 of its state.
CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  header_names TEXT NOT NULL DEFAULT '[]',
  headers_sealed TEXT,
  auth_type TEXT NOT NULL DEFAULT 'headers' CHECK (auth_type IN ('headers', 'oauth')),
  oauth_sealed TEXT,
  oauth_state_hash TEXT UNIQUE,
  oauth_state_expires_at TEXT,
  needs_sign_in INTEGER NOT NULL DEFAULT 0 CHECK (needs_sign_in IN (0, 1)),
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  expose_on_mcp INTEGER NOT NULL DEFAULT 0 CHECK (expose_on_mcp IN (0, 1)),
  transport TEXT CHECK (transport IN ('streamable-http', 'sse')),
  tools_json TEXT,
  tools_fetched_at TEXT,
  tool_count INTEGER,
  last_success_at TEXT,
  last_error TEXT,
  last_error_at TEXT,
  latency_ms INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (tenant_id, name)
);
CREATE INDEX mcp_servers_tenant ON mcp_servers(tenant_id, enabled);
