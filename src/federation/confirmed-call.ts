import type { ActionOwner, ExternalCallWrite } from "../business/action-types.ts";
import type { Execution } from "../business/execute.ts";
import { AppError } from "../errors.ts";
import { callExternalTool } from "./call-tool.ts";
import { getServer } from "./server-store.ts";
import type { FederationService } from "./service.ts";

/**
 * Runs an external tool call its user confirmed, for the `PendingAction` object: the server is
 * looked up again in the owner's workshop (it may have been removed or disabled since), the call
 * is made once, and an audit entry records it. A failure settles the action as failed rather than
 * leaving it to be confirmed again, since a timed-out call may still have happened upstream.
 */
export function confirmedCallRunner(service: FederationService) {
  return async function runConfirmedCall({
    actionId,
    owner,
    write,
  }: {
    actionId: string;
    owner: ActionOwner;
    write: ExternalCallWrite;
  }): Promise<Execution> {
    try {
      const server = await getServer({ db: service.db, tenantId: owner.tenantId, id: write.serverId });
      if (!server.enabled) return { ok: false, message: `The MCP server '${server.name}' has been disabled.` };
      const output = await callExternalTool(service, server, write.toolName, write.arguments, owner.userId);
      const result =
        output.kind === "result" ? { result: output.structured, text: output.text ?? null } : { result: null, text: null };
      await service.db
        .prepare(
          `INSERT OR IGNORE INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json)
           VALUES ('audit-' || ?1, ?2, ?3, ?1, 'external_call', ?4, ?5)`,
        )
        .bind(actionId, owner.tenantId, owner.userId, `${server.id}/${write.toolName}`, JSON.stringify(write.arguments))
        .run();
      return { ok: true, result: { server: server.name, tool: write.toolName, ...result } };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, message: error.message };
      throw error;
    }
  };
}
