import type { WorkshopDb } from "../workshop-db.ts";
import type { PendingActionObject } from "./pending-action.ts";
import type { ExecutorRegistry } from "./types.ts";

/** What the actions domain runs on: the pending-action objects, their time to live, the executors, the audit log's database. */
export interface ActionService extends WorkshopDb {
  objects: DurableObjectNamespace<PendingActionObject>;
  ttlSeconds: number;
  executors: ExecutorRegistry;
}
