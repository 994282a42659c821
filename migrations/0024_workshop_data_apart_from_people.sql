-- Workshops live on several D1 databases (shards); the primary database is the directory
-- (workshops, people, credentials) and every database has this same schema. A workshop's data
-- must therefore not reference `users`, which is the directory's: a shard has no people.

-- Where each workshop's data lives: the binding name of its database. Workshops that existed before
-- shards stay on the primary one ('DB'), which keeps serving them.
ALTER TABLE tenants ADD COLUMN shard TEXT NOT NULL DEFAULT 'DB';

-- An employee's person (the account that signs in as them) without a reference to `users`.
-- `user_id`, which referenced it, is retired: its links move here and it stays empty.
ALTER TABLE employees ADD COLUMN person_id TEXT;
UPDATE employees SET person_id = user_id, user_id = NULL WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX employees_person ON employees(tenant_id, person_id) WHERE person_id IS NOT NULL;

-- Chats, rebuilt without the reference to `users`. Renaming a table rewrites the references to it,
-- so the messages are rebuilt too, against the new `chats`; nothing is deleted by a cascade on the
-- way, because each table is dropped only once nothing references it.
ALTER TABLE chats RENAME TO chats_before_shards;
CREATE TABLE chats (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO chats (id, tenant_id, user_id, title, created_at, updated_at)
  SELECT id, tenant_id, user_id, title, created_at, updated_at FROM chats_before_shards;
CREATE TABLE chat_messages_rebuilt (
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  parts TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (chat_id, id),
  UNIQUE (chat_id, seq)
);
INSERT INTO chat_messages_rebuilt (chat_id, id, seq, role, parts, created_at)
  SELECT chat_id, id, seq, role, parts, created_at FROM chat_messages;
DROP TABLE chat_messages;
ALTER TABLE chat_messages_rebuilt RENAME TO chat_messages;
DROP TABLE chats_before_shards;
CREATE INDEX chats_owner_updated ON chats(tenant_id, user_id, updated_at, id);
