import { roleAtLeast, type UserContext } from "../user-context.ts";
import { initiateSessionTool } from "./initiate-session.ts";
import { knowledgeSearchTool } from "./knowledge-search.ts";
import { listKnowledgeBasesTool } from "./list-knowledge-bases.ts";
import { navigateSessionTool } from "./navigate-session.ts";
import type { Tool } from "./tool.ts";

/** Every tool Weft serves, in the order clients list them. Both faces read this list. */
export const TOOLS: readonly Tool[] = [knowledgeSearchTool, listKnowledgeBasesTool, initiateSessionTool, navigateSessionTool];

/** The tools this caller may see and call. */
export function toolsFor(user: UserContext): Tool[] {
  return TOOLS.filter((tool) => !tool.minRole || roleAtLeast(user.role, tool.minRole));
}
