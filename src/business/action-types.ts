import type { Ambiguity, PreviewField } from "../tools/tool.ts";
import type { UserContext } from "../user-context.ts";

export const ACTION_STATUSES = ["pending", "confirmed", "cancelled", "expired", "failed"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** A piece record, resolved to ids and checked, waiting to be written. */
export interface PieceRecordWrite {
  kind: "piece_record";
  employeeId: string;
  processId: string;
  orderId: string;
  quantity: number;
  /** The price shown in the preview; confirming refuses if the process's price has changed since. */
  unitPriceCents: number;
  workDate: string;
}

/** A new order, checked, waiting to be written; its number is assigned when it is written. */
export interface OrderWrite {
  kind: "order";
  customer: string;
  styleId: string;
  quantity: number;
  dueDate: string;
  note: string;
  timeZone: string;
}

/** A call to an external MCP server's tool that may change things, waiting for its user's yes. */
export interface ExternalCallWrite {
  kind: "external_call";
  serverId: string;
  toolName: string;
  arguments: Record<string, unknown>;
}

export type PreparedWrite = PieceRecordWrite | OrderWrite | ExternalCallWrite;
export type ActionKind = PreparedWrite["kind"];

/** Who prepared an action: only they may see, confirm or cancel it. */
export type ActionOwner = Pick<UserContext, "tenantId" | "userId">;

/** What prepare produced: the write when everything is settled, else what is still open. */
export interface Prepared {
  kind: ActionKind;
  write: PreparedWrite | null;
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
}

/** An action as the REST routes and the tools show it (snake_case JSON). */
export interface ActionView {
  action_id: string;
  kind: ActionKind;
  status: ActionStatus;
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
  created_at: string;
  expires_at: string;
  /** What was written, once confirmed. */
  result?: Record<string, unknown>;
  /** Why a confirm was refused for good (status `failed`). */
  error?: { code: string; message: string };
}
