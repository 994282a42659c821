import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Directory } from "../auth/directory.ts";
import type { Config } from "../config.ts";
import type { Toolset } from "../tools/registry.ts";
import type { ToolContext, ToolServices } from "../tools/tool.ts";
import type { UserContext } from "../user-context.ts";
import type { WorkshopDb } from "../workshop-db.ts";
import type { ChatStreams } from "./stream-run.ts";
import type { TurnRequest } from "./turn-plan.ts";

/** One turn of a chat: who asks, in which chat, what they said, and where to look. */
export interface ChatTurn extends TurnRequest {
  config: Config;
  /**
   * The services wired for the caller's workshop; `chatStreams` where each chat's replies are
   * logged (null: none are, so none can be resumed or stopped from another request).
   */
  services: ToolServices & { chats: WorkshopDb; chatStreams: ChatStreams | null };
  /** Where the caller's and their workshop's names are read. */
  directory: Pick<Directory, "db">;
  waitUntil: (promise: Promise<unknown>) => void;
  user: UserContext;
  requestId: string;
  chatId: string;
  kbIds?: string[] | undefined;
  model: (timeZone: string) => LanguageModelV4;
  /** The tools offered; the registry's for this caller unless a caller (a test) adds its own. */
  toolsFor?: (ctx: ToolContext) => Promise<Toolset>;
  /** How long the turn may run before it is stopped with an error; `TURN_TIMEOUT_MS` unless a test says less. */
  timeoutMs?: number;
}
