-- A workshop's synonym groups, applied at query time (no re-indexing). No row means the shipped
-- default set; a row, even with an empty list, is the workshop's own choice.
CREATE TABLE synonym_sets (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  groups_json TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Entries of a knowledge base of type 'faq'. Each entry is also a row of `documents` (same id,
-- title = the standard question) whose chunks are its questions, one each, holding the answer as
-- content: the keyword and vector indexes then serve FAQ and document bases alike.
CREATE TABLE faq_entries (
  id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  question TEXT NOT NULL,
  similar_questions_json TEXT NOT NULL DEFAULT '[]',
  answer TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (kb_id, question)
);
CREATE INDEX faq_entries_tenant_kb ON faq_entries(tenant_id, kb_id);
