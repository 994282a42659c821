import type { People } from "../actions/service.ts";
import type { Role } from "../user-context.ts";

const MAX_NAMES = 100;

/**
 * The workshop's people as the directory has them now, for the actions domain: a confirm checks
 * its person again (still in the workshop, not deactivated, and their role), and the audit names
 * the people of entries written before names were kept with them. Read from the directory's own
 * database, never joined with the workshop's data.
 */
export function directoryPeople(db: D1Database, tenantId: string): People {
  return {
    current: (userId) =>
      db
        .prepare("SELECT name, role FROM users WHERE id = ?1 AND tenant_id = ?2 AND deactivated_at IS NULL")
        .bind(userId, tenantId)
        .first<{ name: string; role: Role }>(),
    async names(userIds) {
      const ids = userIds.slice(0, MAX_NAMES);
      if (ids.length === 0) return new Map();
      const { results } = await db
        .prepare(`SELECT id, name FROM users WHERE tenant_id = ?1 AND id IN (${ids.map((_, i) => `?${i + 2}`).join(", ")})`)
        .bind(tenantId, ...ids)
        .all<{ id: string; name: string }>();
      return new Map(results.map((r) => [r.id, r.name]));
    },
  };
}
