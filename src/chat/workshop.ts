import { workshopTimeZone } from "../business/local-time.ts";
import type { UserContext } from "../user-context.ts";
import type { WorkshopDb } from "../workshop-db.ts";

/** Who is chatting and for which workshop, as the model's instructions name them. */
export interface WorkshopProfile {
  tenantName: string;
  userName: string;
  timeZone: string;
}

/**
 * The caller's name and their workshop's name, from the directory, and the workshop's time zone,
 * from its own record on its shard (where its business reads "today"), read side by side.
 */
export async function workshopProfile({
  directory,
  workshop,
  user,
}: {
  directory: D1Database;
  workshop: WorkshopDb;
  user: UserContext;
}): Promise<WorkshopProfile> {
  const [names, zone] = await Promise.all([
    directory
      .prepare(
        `SELECT t.name AS tenant_name, u.name AS user_name
           FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE u.id = ?1 AND u.tenant_id = ?2`,
      )
      .bind(user.userId, user.tenantId)
      .first<{ tenant_name: string; user_name: string }>(),
    workshop.db
      .prepare("SELECT time_zone FROM tenants WHERE id = ?1")
      .bind(workshop.tenantId)
      .first<{ time_zone: string | null }>(),
  ]);
  return {
    tenantName: names?.tenant_name ?? "",
    userName: names?.user_name ?? "",
    timeZone: workshopTimeZone(zone?.time_zone),
  };
}
