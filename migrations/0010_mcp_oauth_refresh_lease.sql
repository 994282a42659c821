-- A refresh of a server's OAuth tokens in progress: the request that sets oauth_refresh_until (while
-- it is empty or past) refreshes; the others wait for oauth_sealed to change instead of spending the
-- same refresh token again (a provider that rotates refresh tokens refuses a reused one, and some
-- then revoke every token of the grant).
ALTER TABLE mcp_servers ADD COLUMN oauth_refresh_until TEXT;
