import type { WorkshopDb } from "../workshop-db.ts";
import type { ConsultSession } from "./consult-session.ts";

/** What the consultation domain runs on: stored trees, session objects, and their idle time. */
export interface ConsultService extends WorkshopDb {
  sessions: DurableObjectNamespace<ConsultSession>;
  ttlSeconds: number;
}
