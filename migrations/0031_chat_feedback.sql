-- Issue 42: a person's 👍 or 👎 on an answer, with an optional line, one per answer (rating it
-- again replaces it). A boss reads the recent 👎 with their question and answer, and may add an
-- FAQ entry from one (`faq_kb_id`, `faq_entry_id`). Workshop data, on the workshop's shard; the
-- person is named through the directory, never joined with it.
CREATE TABLE chat_feedback (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
  comment TEXT,
  faq_kb_id TEXT,
  faq_entry_id TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (chat_id, message_id)
);
CREATE INDEX chat_feedback_recent ON chat_feedback(tenant_id, rating, updated_at);
