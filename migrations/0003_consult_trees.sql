-- Decision trees for guided consultations, shared by every workshop. Authors keep them as files in
-- knowledge/trees/; an admin uploads them (npm run dev does so locally). Only valid trees are stored.
CREATE TABLE consult_trees (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,
  tree_json TEXT NOT NULL,
  warnings_json TEXT NOT NULL DEFAULT '[]',
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
