/** The primary database's binding: the directory, and the data of workshops placed before shards. */
export const PRIMARY_SHARD = "DB";

/**
 * The workshop a request acts for, once authentication has said whose it is, and where its data
 * lives, as the directory places it: the binding name of its database (`tenants.shard`), and
 * whether it is being moved to another (then its data is read-only until the move switches).
 */
export interface WorkshopRef {
  id: string;
  shard: string;
  moving?: boolean;
}

/**
 * One workshop's storage as a domain receives it from the wiring: the database its data lives on
 * and the workshop's id. Every domain service extends it, so no domain chooses a database or reads
 * a binding, and where a workshop's data lives is decided in one place (`servicesFor`).
 */
export interface WorkshopDb {
  readonly db: D1Database;
  readonly tenantId: string;
}
