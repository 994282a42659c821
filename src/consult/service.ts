import type { ConsultSession } from "./consult-session.ts";

/** What the consultation domain runs on: stored trees, session objects, and their idle time. */
export interface ConsultService {
  db: D1Database;
  sessions: DurableObjectNamespace<ConsultSession>;
  ttlSeconds: number;
}
