-- Decision trees become per workshop. A row with tenant_id NULL is a shipped tree (knowledge/trees,
-- written by the seed and by `npm run knowledge:ship`) that every workshop sees; a row with a
-- tenant_id is that workshop's own, uploaded by its admin, and overrides a shipped tree with the
-- same id for that workshop only. Trees stored before this migration were shared by every
-- workshop, so they become shipped trees, except any whose id is a reserved name.
CREATE TABLE consult_trees_scoped (
  tenant_id TEXT REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  title TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,
  tree_json TEXT NOT NULL,
  warnings_json TEXT NOT NULL DEFAULT '[]',
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

INSERT INTO consult_trees_scoped (tenant_id, id, title, version, file_name, tree_json, warnings_json, updated_at)
SELECT NULL, id, title, version, file_name, tree_json, warnings_json, updated_at FROM consult_trees
 WHERE id NOT IN ('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
                  'toString', 'toLocaleString', 'valueOf', '__defineGetter__', '__defineSetter__', '__lookupGetter__',
                  '__lookupSetter__');

DROP TABLE consult_trees;
ALTER TABLE consult_trees_scoped RENAME TO consult_trees;

-- NULLs are distinct in a UNIQUE index, so shipped and workshop trees each get their own.
CREATE UNIQUE INDEX consult_trees_shipped ON consult_trees(id) WHERE tenant_id IS NULL;
CREATE UNIQUE INDEX consult_trees_workshop ON consult_trees(tenant_id, id) WHERE tenant_id IS NOT NULL;

-- A key's visible prefix is now at most a third of the key. Generated keys (wft_, 36 characters)
-- already keep 12; any other key (the development keys) kept up to 12, which could be all of it.
UPDATE api_keys SET prefix = substr(prefix, 1, 4) WHERE prefix NOT LIKE 'wft\_%' ESCAPE '\';
