import { z } from "zod";
import { localMinute } from "../business/local-time.ts";
import { workshopTimeZoneOf } from "../business/workshop.ts";
import type { Ambiguity, ConfirmBy, PendingAction } from "../shapes.ts";
import { ACTION_STATUSES } from "../status-words.ts";
import { CONFIRM_BY, confirmAllows, nextStepFor } from "./confirm-by.ts";
import { FOLD_OPTIONAL } from "./json-schemas.ts";
import type { ToolContext } from "./tool.ts";
import { pick } from "./words.ts";

/**
 * A prepared write as every tool that touches one answers it (prepare tools and an external tool
 * that needs a yes, `confirm_action` and `cancel_action`, an elicitation's outcome): the action in
 * its one wire shape (`PendingAction`: `summary` is what is or was written), with what an agent
 * needs beside it. `tell_user`, what to tell the person now: while it waits, where and until when
 * they say yes; once decided, what became of it (a new order's number, or that it was confirmed
 * already). When it lapses, in the workshop's local time to the minute (`expires_local`,
 * `time_zone`, `expires_in_minutes`), not UTC. While it waits, who may say yes with this
 * credential (`confirm_by`) and what the agent does next (`next_step`). A decided action leaves
 * out its preview: what was written is in `result`. The server's instructions and docs/mcp.md say
 * so once, rather than every tool's schema; `tools/list` names its optional fields in one line
 * (`FOLD_OPTIONAL`), as every prepare tool answers with it.
 */
export const ActionResultSchema = z
  .object({
    action_id: z.string(),
    kind: z.string(),
    status: z.enum(ACTION_STATUSES),
    summary: z.string(),
    preview: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
    ambiguities: z
      .array(
        z.object({
          field: z.string(),
          message: z.string(),
          candidates: z.array(z.object({ id: z.string(), label: z.string() })),
        }),
      )
      .optional(),
    created_at: z.string().optional(),
    expires_at: z.string().optional(),
    confirm_url: z.string().optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    tell_user: z.string(),
    expires_local: z.string().optional().describe("YYYY-MM-DD HH:MM in time_zone."),
    time_zone: z.string().optional(),
    expires_in_minutes: z.number().int().optional(),
    confirm_by: z.enum(CONFIRM_BY).optional(),
    next_step: z.string().optional(),
  })
  .meta({ [FOLD_OPTIONAL]: true });

/**
 * A write already decided, as confirm_action and cancel_action answer it: the same shape without
 * what only a waiting write needs (its preview, its confirm page and expiry, advice); what was
 * written is in `result`.
 */
export const DecidedActionSchema = ActionResultSchema.omit({
  preview: true,
  ambiguities: true,
  created_at: true,
  expires_at: true,
  confirm_url: true,
  expires_local: true,
  time_zone: true,
  expires_in_minutes: true,
  confirm_by: true,
  next_step: true,
});

export type ActionResult = z.output<typeof ActionResultSchema>;

/**
 * Who may say yes to a write prepared with this credential (its owner's `confirm_by`): what a
 * pending result tells an agent, so that it learns it without failing.
 */
export function confirmationAdvice(ctx: ToolContext): { confirm_by: ConfirmBy } {
  return { confirm_by: ctx.confirming.by };
}

const zones = new WeakMap<ToolContext, Promise<string>>();

/** The workshop's time zone, read once per request: the zone the times its people are told are in. */
export function workshopTimeZone(ctx: ToolContext): Promise<string> {
  let zone = zones.get(ctx);
  if (!zone) {
    zone = workshopTimeZoneOf({ business: ctx.services.business });
    zones.set(ctx, zone);
  }
  return zone;
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

/**
 * The action's own fields, as the wire shape has them: while it waits, all of them; once decided,
 * what it is and became (what was written, without the new row's internal id, which no tool
 * takes: a new order is named by its number).
 */
function wireFields(action: PendingAction, { waiting }: { waiting: boolean }) {
  const written = action.result
    ? Object.fromEntries(Object.entries(action.result).filter(([key]) => !/(^|_)id$/.test(key)))
    : undefined;
  return {
    action_id: action.action_id,
    kind: action.kind,
    status: action.status,
    summary: action.summary,
    ...(waiting
      ? {
          // Each line as the person reads it: whether a value waits for the write is the card's concern.
          preview: action.preview.map(({ label, value }) => ({ label, value })),
          ambiguities: action.ambiguities,
          created_at: action.created_at,
          expires_at: action.expires_at,
          confirm_url: action.confirm_url,
        }
      : {}),
    ...(written ? { result: written } : {}),
    ...(action.error ? { error: action.error } : {}),
  };
}

/** A write prepared and waiting for the person's yes, as a tool answers it. */
export async function pendingActionResult(
  ctx: ToolContext,
  action: PendingAction,
  { tool }: { tool: string },
): Promise<ActionResult> {
  const timeZone = await workshopTimeZone(ctx);
  const expiresAt = new Date(action.expires_at);
  const minutes = Math.max(0, Math.ceil((expiresAt.getTime() - Date.now()) / 60_000));
  const until = localMinute(expiresAt, timeZone);
  const { confirm_by } = confirmationAdvice(ctx);
  const common = {
    ...wireFields(action, { waiting: true }),
    expires_local: until,
    time_zone: timeZone,
    expires_in_minutes: minutes,
    confirm_by,
  };
  if (action.ambiguities.length > 0) {
    return {
      ...common,
      next_step: `Ask the user to choose each open field, then call ${tool} again with the chosen id. This action cannot be confirmed; nothing is written.`,
      tell_user: `还要先确定${openChoices(action.ambiguities)}。选好后我再准备一次，确认前不会写入。`,
    };
  }
  const time = `${minutes} 分钟内有效（到 ${until.slice(11)}）`;
  return {
    ...common,
    next_step: nextStepFor(confirm_by, action.action_id),
    tell_user: confirmAllows(confirm_by, "agent")
      ? `说“确认”我就写入，说“不要”就取消；${time}。`
      : `请打开 ${action.confirm_url} 核对后点“确认”；${time}。确认之前不会写入。`,
  };
}

/**
 * A write that has been decided (or is being written, or still waits, for a caller that only asks
 * how it stands), as a tool answers it. `before` is the status it had before this call: a confirm
 * or cancel of an action already decided says so rather than "done" again.
 */
export function actionViewResult(view: PendingAction, { before }: { before?: PendingAction["status"] } = {}): ActionResult {
  const again = before !== undefined && before === view.status;
  // The order a write made (a new order's number) or went to (a piece record's), said in the sentence.
  const orderNo =
    typeof view.result?.order_no === "string"
      ? `${view.kind === "order" ? "新订单号" : "记在订单"} ${view.result.order_no}。`
      : "";
  const said: Record<PendingAction["status"], string> = {
    confirmed: again
      ? `这项写入之前已经确认过了，没有再写一次：${view.summary}。${orderNo}`
      : `已确认并写入：${view.summary}。${orderNo}`,
    cancelled: again ? `这项写入之前已经取消了，什么都没有写入：${view.summary}。` : `已取消，什么都没有写入：${view.summary}。`,
    expired: `已过期，什么都没有写入：${view.summary}。需要的话请重新准备。`,
    failed: `没有写入：${view.summary}。${view.error?.message ?? ""}`,
    confirming: `正在写入：${view.summary}。过一会儿再查看结果。`,
    pending: `还在等待确认：${view.summary}。`,
  };
  return { ...wireFields(view, { waiting: view.status === "pending" }), tell_user: said[view.status] };
}
