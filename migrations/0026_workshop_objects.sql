-- The Durable Objects that hold one workshop's state (a pending write, a consultation), by id, so
-- that deleting the workshop can empty each of them too. A row is forgotten once its object has
-- surely emptied itself (its alarm deletes its storage well before `forget_after`).
CREATE TABLE workshop_objects (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('pending_action', 'consult_session')),
  object_id TEXT NOT NULL,
  forget_after TEXT NOT NULL,
  PRIMARY KEY (tenant_id, kind, object_id)
);
CREATE INDEX workshop_objects_forget ON workshop_objects(tenant_id, forget_after);
