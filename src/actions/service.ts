import type { Role } from "../user-context.ts";
import type { WorkshopDb } from "../workshop-db.ts";
import type { PendingActionObject } from "./pending-action.ts";
import type { ExecutorRegistry } from "./types.ts";

/**
 * The directory's word on the workshop's people, read apart from the workshop's own data (people
 * live in the directory, which may be another database).
 */
export interface People {
  /** The person as they are now, if they still belong to the workshop: a confirm checks them again. */
  current(userId: string): Promise<{ name: string; role: Role } | null>;
  /** Names by id, for audit entries written before the confirming person's name was stored with them. */
  names(userIds: readonly string[]): Promise<Map<string, string>>;
}

/**
 * What the actions domain runs on: the pending-action objects, their time to live, the executors,
 * the audit log's database, the workshop's people, and the origin people reach Weft at (for the
 * confirm page's address).
 */
export interface ActionService extends WorkshopDb {
  objects: DurableObjectNamespace<PendingActionObject>;
  ttlSeconds: number;
  executors: ExecutorRegistry;
  people: People;
  origin: string;
}
