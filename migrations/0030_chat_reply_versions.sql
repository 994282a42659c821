-- Issue 42: replies made again and questions edited keep their earlier versions, and a reply says
-- how it ended. Each message may name the question it answers (`reply_to`, on answers) and the
-- message that took its place (`replaced_by`: the current version; NULL on the current one). The
-- history shows current versions only; the earlier ones stay reachable from the current one.
-- `metadata` is the message's AI SDK metadata as it was streamed (how it ended, how many versions
-- it replaced).
ALTER TABLE chat_messages ADD COLUMN reply_to TEXT;
ALTER TABLE chat_messages ADD COLUMN replaced_by TEXT;
ALTER TABLE chat_messages ADD COLUMN metadata TEXT;
-- Answers stored before this answer the question just before them.
UPDATE chat_messages SET reply_to = (
  SELECT q.id FROM chat_messages q
   WHERE q.chat_id = chat_messages.chat_id AND q.role = 'user' AND q.seq < chat_messages.seq
   ORDER BY q.seq DESC LIMIT 1
) WHERE role = 'assistant';
CREATE INDEX chat_messages_reply_to ON chat_messages(chat_id, reply_to) WHERE reply_to IS NOT NULL;
CREATE INDEX chat_messages_replaced_by ON chat_messages(chat_id, replaced_by) WHERE replaced_by IS NOT NULL;

-- A chat's stream log (a Durable Object) holds what a running reply says, so deleting the workshop
-- must empty it too: its kind joins the list. SQLite cannot change a CHECK, so the table is rebuilt.
CREATE TABLE workshop_objects_widened (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('pending_action', 'consult_session', 'chat_stream')),
  object_id TEXT NOT NULL,
  forget_after TEXT NOT NULL,
  PRIMARY KEY (tenant_id, kind, object_id)
);
INSERT INTO workshop_objects_widened (tenant_id, kind, object_id, forget_after)
  SELECT tenant_id, kind, object_id, forget_after FROM workshop_objects;
DROP TABLE workshop_objects;
ALTER TABLE workshop_objects_widened RENAME TO workshop_objects;
CREATE INDEX workshop_objects_forget ON workshop_objects(tenant_id, forget_after);
