-- Uploaded files ingested as a durable job (a Workflow instance a job): the job's state and
-- progress, and the file's bytes while it runs. A job row exists only while its document's latest
-- upload is being read; when it ends the document row holds the outcome (ready, or failed with a
-- reason), and the job row and its bytes are deleted. Deleting the document deletes both.
CREATE TABLE document_jobs (
  document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL,
  -- The Workflow instance's id; a newer upload of the document replaces the row, and the older
  -- instance, finding another id here, stops without writing.
  job_id TEXT NOT NULL UNIQUE,
  -- The document's generation when the upload was taken: the job's write applies only while it is.
  base_generation INTEGER NOT NULL,
  kind TEXT NOT NULL,
  title TEXT,
  content_hash TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'parsing', 'indexing')),
  -- Progress: pages or rows read while parsing, passages indexed while indexing, of the total.
  unit TEXT CHECK (unit IN ('pages', 'rows', 'chunks')),
  done INTEGER NOT NULL DEFAULT 0,
  total INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A job's file in parts of at most 1 MiB (D1 holds at most 2 MB in a row), and the text its parse
-- step made, so each step of the job reads what the last one left. Keyed by the job, so a newer
-- upload's parts never mix with an older one's.
CREATE TABLE document_job_parts (
  -- A stalled job revived under a new id keeps its file (ON UPDATE CASCADE).
  job_id TEXT NOT NULL REFERENCES document_jobs(job_id) ON DELETE CASCADE ON UPDATE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('file', 'text')),
  part INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (job_id, kind, part)
);
