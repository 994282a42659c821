import { workshopTimeZone } from "../business/local-time.ts";
import type { UserContext } from "../user-context.ts";

/** Who is chatting and for which workshop, as the model's instructions name them. */
export interface WorkshopProfile {
  tenantName: string;
  userName: string;
  timeZone: string;
}

/** The caller's name, their workshop's name and its time zone. */
export async function workshopProfile({ db, user }: { db: D1Database; user: UserContext }): Promise<WorkshopProfile> {
  const row = await db
    .prepare(
      `SELECT t.name AS tenant_name, t.time_zone, u.name AS user_name
         FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE u.id = ?1 AND u.tenant_id = ?2`,
    )
    .bind(user.userId, user.tenantId)
    .first<{ tenant_name: string; time_zone: string | null; user_name: string }>();
  return { tenantName: row?.tenant_name ?? "", userName: row?.user_name ?? "", timeZone: workshopTimeZone(row?.time_zone) };
}
