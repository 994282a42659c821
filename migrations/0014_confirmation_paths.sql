-- Whether a key's owner lets agents confirm prepared writes with it (confirm_action over MCP, the
-- REST confirm route with that key). Off for every key until a person turns it on.
ALTER TABLE api_keys ADD COLUMN agent_confirm INTEGER NOT NULL DEFAULT 0 CHECK (agent_confirm IN (0, 1));

-- How each executed write was confirmed (card, elicitation, confirm_page, agent_key) and, for a
-- key, its visible prefix. Rows written before this migration have neither.
ALTER TABLE business_audit ADD COLUMN confirmed_via TEXT;
ALTER TABLE business_audit ADD COLUMN confirmed_key TEXT;
