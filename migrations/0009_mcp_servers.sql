-- External MCP servers a workshop registers. Header values are stored only as AES-GCM ciphertext
-- (key from the MCP_SECRETS_KEY secret, the row's id and tenant as associated data); their names
-- are kept in clear so a list can show them. The tool list is cached here with when it was
-- fetched, and health (last success, last error, tool count, latency) is updated on every contact.
CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  header_names TEXT NOT NULL DEFAULT '[]',
  headers_sealed TEXT,
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
