import { AUDIT_APPROVAL_COLUMNS, auditApprovalValues, type Executor, placeholders } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import { fenceOf } from "../placement/fence.ts";
import { callExternalTool } from "./call-tool.ts";
import { getServer } from "./server-store.ts";
import type { FederationService } from "./service.ts";

/** A call to an external MCP server's tool that may change things, waiting for its user's yes. */
export interface ExternalCallWrite {
  serverId: string;
  toolName: string;
  arguments: Record<string, unknown>;
}

/**
 * Runs an external tool call its user confirmed: the server is looked up again in the owner's
 * workshop (it may have been removed or disabled since), the call is made once, and an audit entry
 * records it. A failure settles the action as failed rather than leaving it to be confirmed again,
 * since a timed-out call may still have happened upstream; for the same reason a confirm
 * interrupted mid-call is never retaken: no `written`, since a call elsewhere cannot be looked up.
 */
export function externalCallExecutor(service: FederationService): Executor<ExternalCallWrite> {
  return {
    kind: "external_call",
    label: { zh: "外部工具调用", en: "External tool call" },
    async execute({ actionId, owner, write, summary, approval }) {
      // A workshop being moved takes no writes, so the call's audit entry could not follow it: it is
      // not made, and (thrown, not settled) the action stays pending to be confirmed after the move.
      const fence = fenceOf(service.db);
      if (fence) throw fence;
      try {
        const server = await getServer({ db: service.db, tenantId: owner.tenantId, id: write.serverId });
        if (!server.enabled) return { ok: false, message: `The MCP server '${server.name}' has been disabled.` };
        const output = await callExternalTool(service, server, write.toolName, write.arguments, owner.userId);
        const result = { result: output.structured, text: output.text ?? null };
        await service.db
          .prepare(
            `INSERT OR IGNORE INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, ${AUDIT_APPROVAL_COLUMNS})
             VALUES ('audit-' || ?1, ?2, ?3, ?1, 'external_call', ?4, ?5, ${placeholders(6, AUDIT_APPROVAL_COLUMNS.split(",").length)})`,
          )
          .bind(
            actionId,
            owner.tenantId,
            owner.userId,
            `${server.id}/${write.toolName}`,
            JSON.stringify(write.arguments),
            ...auditApprovalValues(approval, summary),
          )
          .run();
        return { ok: true, result: { server: server.name, tool: write.toolName, ...result } };
      } catch (error) {
        if (error instanceof AppError) return { ok: false, message: error.message };
        throw error;
      }
    },
  };
}
