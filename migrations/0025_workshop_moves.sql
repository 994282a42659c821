-- Moving a workshop to another shard (npm run workshop:move), step by step and resumable. While
-- `move_to` is set, the workshop's data is read-only (writes are answered 503 with Retry-After);
-- `move_from` stays until the old shard's rows are deleted. `move_progress` is where the copy or
-- the check has got to (JSON), so a move interrupted at any step goes on from there.
ALTER TABLE tenants ADD COLUMN move_to TEXT;
ALTER TABLE tenants ADD COLUMN move_from TEXT;
ALTER TABLE tenants ADD COLUMN move_state TEXT CHECK (move_state IN ('fenced', 'copying', 'verifying', 'switched'));
ALTER TABLE tenants ADD COLUMN move_since TEXT;
ALTER TABLE tenants ADD COLUMN move_progress TEXT;

-- The shard an operator's invite code places the workshop that signs up with it on (NULL: the
-- shard holding the least data).
ALTER TABLE invite_codes ADD COLUMN shard TEXT;
