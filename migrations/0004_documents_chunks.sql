-- Documents of a knowledge base and their chunks. The keyword index is an FTS5 table per tenant
-- (created on first ingestion, named fts_<hash of tenant id>), so that BM25 statistics and scans
-- never mix workshops.
CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  filename TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT 'upload',
  content_type TEXT NOT NULL,
  content_hash TEXT,
  size_bytes INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
  error TEXT,
  chunk_count INTEGER NOT NULL DEFAULT 0,
  generation INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (kb_id, filename)
);
CREATE INDEX documents_tenant_kb ON documents(tenant_id, kb_id);
CREATE INDEX documents_hash ON documents(kb_id, content_hash);

CREATE TABLE chunks (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  kb_id TEXT NOT NULL,
  document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  heading_path TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL
);
CREATE INDEX chunks_document ON chunks(document_id);
CREATE INDEX chunks_tenant_kb ON chunks(tenant_id, kb_id);
