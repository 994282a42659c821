/**
 * One workshop's storage as a domain receives it from the wiring: the database its data lives on
 * and the workshop's id. Every domain service extends it, so no domain chooses a database or reads
 * a binding, and where a workshop's data lives is decided in one place (`servicesFor`).
 */
export interface WorkshopDb {
  readonly db: D1Database;
  readonly tenantId: string;
}
