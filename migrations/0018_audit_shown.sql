-- Every approval records what its person was shown: the exact preview text and its SHA-256, the
-- credential it was confirmed with (an API key's visible prefix or an OAuth app's name), and the
-- confirming person's name as it was then (people live in the directory, which may be another
-- database than the workshop's audit). Entries written before this have none of them.
ALTER TABLE business_audit ADD COLUMN user_name TEXT;
ALTER TABLE business_audit ADD COLUMN credential TEXT;
ALTER TABLE business_audit ADD COLUMN shown_text TEXT;
ALTER TABLE business_audit ADD COLUMN shown_sha256 TEXT;

-- Until now an elicitation could only be a form (a URL elicitation only opens the confirm page),
-- and a key's prefix was the only credential recorded.
UPDATE business_audit SET confirmed_via = 'form_elicitation' WHERE confirmed_via = 'elicitation';
UPDATE business_audit SET credential = confirmed_key WHERE confirmed_key IS NOT NULL;

-- The audit is append-only: no statement changes an entry once written. (Entries go only with
-- their whole workshop, when it is closed.)
CREATE TRIGGER business_audit_append_only BEFORE UPDATE ON business_audit
BEGIN
  SELECT RAISE(ABORT, 'the audit is append-only: an entry cannot be changed');
END;
