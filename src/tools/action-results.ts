import { z } from "zod";
import { localMinute } from "../business/local-time.ts";
import { workshopTimeZoneOf } from "../business/workshop.ts";
import type { ActionView, Ambiguity, PendingAction } from "../shapes.ts";
import type { ToolContext } from "./tool.ts";
import { pick } from "./words.ts";

/**
 * A prepared write as every tool that touches one answers it: prepare tools (and an external tool
 * that needs a yes), `confirm_action` and `cancel_action`, and an elicitation's outcome. One
 * shape: `summary`, the sentence to tell the person; the status, the action and its kind; the
 * preview and what is still open; when it lapses, in the workshop's local time to the minute
 * (`expires_at`, `time_zone`, `expires_in_minutes`); while it waits, where the person confirms
 * (`confirm_url`), who may say yes with this credential (`confirm_by`), what the agent does next
 * (`next_step`) and what to tell the person (`tell_user`); once decided, what was written
 * (`result`) or why not (`error`). The server's instructions and docs/mcp.md say so once, rather
 * than every tool's schema.
 */
export const ActionResultSchema = z.object({
  summary: z.string(),
  status: z.enum(["pending_confirmation", "confirmed", "cancelled", "expired", "failed"]),
  action_id: z.string(),
  kind: z.string().optional(),
  preview: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
  ambiguities: z
    .array(
      z.object({ field: z.string(), message: z.string(), candidates: z.array(z.object({ id: z.string(), label: z.string() })) }),
    )
    .optional(),
  expires_at: z.string().describe("Workshop-local, YYYY-MM-DD HH:MM."),
  time_zone: z.string(),
  expires_in_minutes: z.number().int().optional(),
  confirm_url: z.string().optional(),
  confirm_by: z.enum(["weft", "agent"]).optional(),
  next_step: z.string().optional(),
  tell_user: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/**
 * A write already decided, as confirm_action and cancel_action answer it: what was written (or
 * why not) instead of the preview the person saw, and no advice, since nothing is left to do.
 */
export const DecidedActionSchema = ActionResultSchema.omit({
  preview: true,
  ambiguities: true,
  expires_in_minutes: true,
  confirm_url: true,
  confirm_by: true,
  next_step: true,
  tell_user: true,
});

export type ActionResult = z.output<typeof ActionResultSchema>;

/**
 * Who may say yes to a write prepared with this credential, under today's rule: an agent whose
 * key's owner allowed it, else the person on Weft's own confirm page (or card). The one place the
 * rule is read for what a result tells an agent (and the record-pieces prompt), so a credential's
 * own choice of who confirms (issue 39) changes only this function's inside.
 */
export function confirmationAdvice(ctx: ToolContext): { confirm_by: "weft" | "agent" } {
  return { confirm_by: ctx.agentConfirm ? "agent" : "weft" };
}

const zones = new WeakMap<ToolContext, Promise<string>>();

/** The workshop's time zone, read once per request. */
function timeZoneOf(ctx: ToolContext): Promise<string> {
  let zone = zones.get(ctx);
  if (!zone) {
    zone = workshopTimeZoneOf({ business: ctx.services.business });
    zones.set(ctx, zone);
  }
  return zone;
}

/** An instant as the workshop's people read it, to the minute, with its zone: "2026-11-28 10:42 (Asia/Shanghai)". */
export async function workshopMinute(ctx: ToolContext, iso: string): Promise<string> {
  const timeZone = await timeZoneOf(ctx);
  return `${localMinute(new Date(iso), timeZone)} (${timeZone})`;
}

const FIELD_WORDS = pick("employee", "process", "order", "style");

// The person's question for each open choice, with its candidates: "订单：2026-001 …；2026-006 …".
function openChoices(ambiguities: readonly Ambiguity[]): string {
  return ambiguities
    .map((a) => {
      const field = Object.hasOwn(FIELD_WORDS, a.field) ? (FIELD_WORDS[a.field]?.zh ?? a.field) : a.field;
      return `${field}（可选：${a.candidates.map((c) => c.label).join("；")}）`;
    })
    .join("，");
}

/** A write prepared and waiting for the person's yes, as a tool answers it. */
export async function pendingActionResult(
  ctx: ToolContext,
  action: PendingAction,
  { tool }: { tool: string },
): Promise<ActionResult> {
  const timeZone = await timeZoneOf(ctx);
  const expiresAt = new Date(action.expiresAt);
  const minutes = Math.max(0, Math.ceil((expiresAt.getTime() - Date.now()) / 60_000));
  const until = localMinute(expiresAt, timeZone);
  const confirmUrl = ctx.confirmUrl(action.actionId);
  const { confirm_by } = confirmationAdvice(ctx);
  const common = {
    status: "pending_confirmation" as const,
    action_id: action.actionId,
    preview: action.preview,
    ambiguities: action.ambiguities,
    expires_at: until,
    time_zone: timeZone,
    expires_in_minutes: minutes,
    confirm_url: confirmUrl,
    confirm_by,
  };
  if (action.ambiguities.length > 0) {
    return {
      summary: `还不能写入：${action.summary}。还要先确定${openChoices(action.ambiguities)}。`,
      ...common,
      next_step: `Ask the user to choose each open field, then call ${tool} again with the chosen id. This action cannot be confirmed; nothing is written.`,
      tell_user: `还要先确定${openChoices(action.ambiguities)}。选好后我再准备一次，确认前不会写入。`,
    };
  }
  const time = `${minutes} 分钟内有效（到 ${until.slice(11)}）`;
  return {
    summary: `已准备，尚未写入：${action.summary}。`,
    ...common,
    ...(confirm_by === "agent"
      ? {
          next_step:
            "Show the preview and ask. Only after the user says yes, call confirm_action (or they confirm at confirm_url); if no, cancel_action. Never confirm on your own initiative.",
          tell_user: `说“确认”我就写入，说“不要”就取消；${time}。`,
        }
      : {
          next_step:
            "Show the preview and give the user confirm_url: they confirm there, signed in to Weft; this credential may not confirm. If no, cancel_action.",
          tell_user: `请打开 ${confirmUrl} 核对后点“确认”；${time}。确认之前不会写入。`,
        }),
  };
}

const STATUS_OF: Record<ActionView["status"], ActionResult["status"]> = {
  pending: "pending_confirmation",
  confirmed: "confirmed",
  cancelled: "cancelled",
  expired: "expired",
  failed: "failed",
};

/**
 * A write that has been decided (or is still pending, for a caller that only asks how it stands),
 * as a tool answers it. `before` is the status it had before this call: a confirm or cancel of an
 * action already decided says so rather than "done" again.
 */
export async function actionViewResult(
  ctx: ToolContext,
  view: ActionView,
  { before }: { before?: ActionView["status"] } = {},
): Promise<ActionResult> {
  const timeZone = await timeZoneOf(ctx);
  const again = before !== undefined && before === view.status;
  // The order a write made (a new order's number) or went to (a piece record's), said in the sentence.
  const orderNo =
    typeof view.result?.order_no === "string"
      ? `${view.kind === "order" ? "新订单号" : "记在订单"} ${view.result.order_no}。`
      : "";
  const summary =
    view.status === "confirmed"
      ? again
        ? `这项写入之前已经确认过了，没有再写一次：${view.summary}。${orderNo}`
        : `已确认并写入：${view.summary}。${orderNo}`
      : view.status === "cancelled"
        ? again
          ? `这项写入之前已经取消了，什么都没有写入：${view.summary}。`
          : `已取消，什么都没有写入：${view.summary}。`
        : view.status === "expired"
          ? `已过期，什么都没有写入：${view.summary}。需要的话请重新准备。`
          : view.status === "failed"
            ? `没有写入：${view.summary}。${view.error?.message ?? ""}`
            : `还在等待确认：${view.summary}。`;
  return {
    summary,
    status: STATUS_OF[view.status],
    action_id: view.action_id,
    kind: view.kind,
    expires_at: localMinute(new Date(view.expires_at), timeZone),
    time_zone: timeZone,
    ...(view.result ? { result: view.result } : {}),
    ...(view.error ? { error: view.error } : {}),
  };
}
