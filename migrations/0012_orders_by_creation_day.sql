-- query_orders filters by the day an order was placed (created_from/created_to), per workshop.
CREATE INDEX orders_tenant_created ON orders(tenant_id, created_at);
