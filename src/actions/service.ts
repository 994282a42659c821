import type { PendingActionObject } from "./pending-action.ts";
import type { ExecutorRegistry } from "./types.ts";

/** What the actions domain runs on: the pending-action objects, their time to live, the executors, the audit log's database. */
export interface ActionService {
  db: D1Database;
  objects: DurableObjectNamespace<PendingActionObject>;
  ttlSeconds: number;
  executors: ExecutorRegistry;
}
