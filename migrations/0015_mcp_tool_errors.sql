-- Errors of single tools on an external server, counted apart from the server's health: a tool that
-- answers with an error says nothing of whether the server and its other tools work.
ALTER TABLE mcp_servers ADD COLUMN tool_error_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mcp_servers ADD COLUMN last_tool_error TEXT;
ALTER TABLE mcp_servers ADD COLUMN last_tool_error_at TEXT;
