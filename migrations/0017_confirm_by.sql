-- Who may say yes to a write prepared with a credential, its owner's choice per API key and per
-- OAuth connection: 'weft' (only Weft's own card, confirm page or URL elicitation), 'client' (also
-- the person's MCP client asking them) or 'agent' (also the agent, with confirm_action). A key
-- whose owner let agents confirm (agent_confirm) keeps that as 'agent'; agent_confirm goes, since
-- confirm_by says it (the API still shows agent_confirm, derived, for one release).
ALTER TABLE api_keys ADD COLUMN confirm_by TEXT NOT NULL DEFAULT 'weft' CHECK (confirm_by IN ('weft', 'client', 'agent'));
UPDATE api_keys SET confirm_by = 'agent' WHERE agent_confirm = 1;
ALTER TABLE api_keys DROP COLUMN agent_confirm;

ALTER TABLE oauth_connections ADD COLUMN confirm_by TEXT NOT NULL DEFAULT 'weft' CHECK (confirm_by IN ('weft', 'client', 'agent'));
