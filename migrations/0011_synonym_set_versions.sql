-- A version per workshop's synonym list, for If-Match on PUT and DELETE /api/synonyms: every
-- stored change moves it on by one and it never goes back, so a version a client read is never
-- reused for another list. Going back to the shipped default therefore keeps the row, marked
-- is_default (no row at all, version 0, is still the default of a workshop that never chose).
ALTER TABLE synonym_sets ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE synonym_sets ADD COLUMN is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1));
