-- A garment workshop's business records. Every row carries tenant_id; money is integer cents (分).
-- Dates a person means ("today", "this month") are the workshop's local dates, in its time zone.
ALTER TABLE tenants ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Asia/Shanghai';

-- People who do piece work; user_id links the ones who sign in (staff see only their own rows).
CREATE TABLE employees (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  user_id TEXT REFERENCES users(id),
  name TEXT NOT NULL,
  employee_no TEXT NOT NULL,
  phone TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'left')),
  left_on TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (tenant_id, employee_no),
  UNIQUE (tenant_id, user_id)
);

-- A style (款式) groups the processes an order of that style goes through.
CREATE TABLE styles (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (tenant_id, code)
);

-- A process (工序) of a style with its current unit price per piece.
CREATE TABLE processes (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  style_id TEXT NOT NULL REFERENCES styles(id),
  name TEXT NOT NULL,
  unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents >= 0),
  sort_order INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (tenant_id, style_id, name)
);

CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  order_no TEXT NOT NULL,
  customer TEXT NOT NULL,
  style_id TEXT NOT NULL REFERENCES styles(id),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  due_date TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_production', 'completed', 'cancelled')),
  note TEXT NOT NULL DEFAULT '',
  created_by TEXT,
  action_id TEXT UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (tenant_id, order_no)
);
CREATE INDEX orders_tenant_status ON orders(tenant_id, status, due_date);

-- The unit price is copied at entry, so a later price change never rewrites past wages.
-- action_id is the pending action that wrote the row: unique, so one action writes one row.
CREATE TABLE piece_records (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  employee_id TEXT NOT NULL REFERENCES employees(id),
  process_id TEXT NOT NULL REFERENCES processes(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents >= 0),
  work_date TEXT NOT NULL,
  entered_by TEXT,
  action_id TEXT UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- The filters the tools offer: by date (everyone), by employee (staff always), by order, by process.
-- The first two also carry quantity and price, so totals over a month or a person read only the index.
CREATE INDEX piece_records_tenant_date ON piece_records(tenant_id, work_date, id, quantity, unit_price_cents);
CREATE INDEX piece_records_tenant_employee_date ON piece_records(tenant_id, employee_id, work_date, id, quantity, unit_price_cents);
CREATE INDEX piece_records_tenant_order_date ON piece_records(tenant_id, order_id, work_date, id);
CREATE INDEX piece_records_tenant_process_date ON piece_records(tenant_id, process_id, work_date, id);
-- Covers the pieces per order and process (order progress, the over-quantity warning) without the table.
CREATE INDEX piece_records_order_process ON piece_records(tenant_id, order_id, process_id, quantity);

-- 补贴 (allowance) and 扣款 (deduction) for one employee and month ('YYYY-MM'); payroll is
-- piece wages (quantity x unit price at entry) + allowances - deductions.
CREATE TABLE payroll_adjustments (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  employee_id TEXT NOT NULL REFERENCES employees(id),
  month TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('allowance', 'deduction')),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX payroll_adjustments_tenant_month ON payroll_adjustments(tenant_id, month, employee_id);

-- Every write executed through a confirmed action: who, what, when, which action, the values.
CREATE TABLE business_audit (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  user_id TEXT NOT NULL,
  action_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  values_json TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX business_audit_tenant_created ON business_audit(tenant_id, created_at, id);
