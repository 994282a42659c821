-- A workshop runs its own business in Weft: its boss adds and changes employees, styles, processes
-- and their prices, moves orders through their statuses, enters 补贴 and 扣款 and sets the workshop's
-- name and time zone, each a write confirmed by a person (docs/business.md).

-- Every row such a write changes carries a version, moved on by one with each change: a change is
-- prepared against the version it read and applies only while the row is still at it, so a change
-- made meanwhile is never overwritten (and REST clients may send it as `If-Match`).
ALTER TABLE employees ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE styles ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE processes ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE orders ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tenants ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- Why an order was cancelled (已取消 takes a reason); empty for every other status.
ALTER TABLE orders ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';

-- A process's price from a day on (the workshop's date). `processes.unit_price_cents` stays the
-- price a process started with: the price on a day is the latest change in effect by then, else
-- that one. A piece record copies the price of its work date when it is written, so a change never
-- rewrites a record entered before it. Changes are kept, also those a later one for the same day
-- replaced (the later wins), so a process's price history reads whole.
CREATE TABLE process_prices (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  process_id TEXT NOT NULL REFERENCES processes(id),
  unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents BETWEEN 0 AND 10000000),
  effective_from TEXT NOT NULL,
  set_by TEXT,
  action_id TEXT UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX process_prices_on_day ON process_prices(tenant_id, process_id, effective_from, created_at);

-- Who entered a 补贴 or 扣款 and through which confirmed action (a row per action, at most), and
-- when one entered by mistake was taken back: it stays, out of every payslip, so its audit reads
-- whole and loading the demo again never brings back one a person took back.
ALTER TABLE payroll_adjustments ADD COLUMN created_by TEXT;
ALTER TABLE payroll_adjustments ADD COLUMN action_id TEXT;
ALTER TABLE payroll_adjustments ADD COLUMN removed_at TEXT;
ALTER TABLE payroll_adjustments ADD COLUMN removed_by TEXT;
CREATE UNIQUE INDEX payroll_adjustments_action ON payroll_adjustments(action_id) WHERE action_id IS NOT NULL;

-- The audit answers "which action wrote this" for every kind of write, not only those whose row
-- carries its action id.
CREATE INDEX business_audit_action ON business_audit(action_id);
