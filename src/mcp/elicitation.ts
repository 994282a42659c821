import {
  CLIENT_CAPABILITIES_META_KEY,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { cancelAction, confirmAction, getAction, pendingResult } from "../actions/actions.ts";
import { AppError } from "../errors.ts";
import { printable } from "../printable.ts";
import type { ActionView, Ambiguity, PendingAction } from "../shapes.ts";
import { actionViewResult, workshopMinute } from "../tools/action-results.ts";
import type { ToolOutcome } from "../tools/run-tool.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";
import { argumentsDigest, type ConfirmState, confirmStateCodec } from "./request-state.ts";

/** The key of the one input request a confirmation round makes. */
const ANSWER = "confirm";

/** How a client can put a prepared write to its person in-band, and the codec its states are signed with. */
export interface Asking {
  mode: "form" | "url";
  codec: RequestStateCodec<ConfirmState>;
}

/** A round's answer to a `tools/call`: ask the person (again), or the tool's outcome. */
export type Round = { ask: InputRequiredResult } | { outcome: ToolOutcome };

/**
 * Whether the client of this request can ask its person: only a 2026-07-28 request carries its
 * capabilities (a 2025-era client declared them in an `initialize` that a stateless server never
 * sees again, and cannot answer `input_required` anyway). A form elicitation is preferred, where
 * the person answers in the client; a client that only opens URLs is sent to the confirm page.
 */
export async function askingFor(mcp: ServerContext, ctx: ToolContext): Promise<Asking | null> {
  const elicitation = objectAt(objectAt(mcp.mcpReq.envelope, CLIENT_CAPABILITIES_META_KEY), "elicitation");
  if (!elicitation) return null;
  const codec = confirmStateCodec(ctx.config.federation.secretsKey, ctx.services.actions.ttlSeconds);
  if (!codec) return null;
  // An empty `elicitation` capability means form mode (as in the 2025-11-25 revision).
  const form = Object.hasOwn(elicitation, "form") || !Object.hasOwn(elicitation, "url");
  return { mode: form ? "form" : "url", codec: await codec };
}

function objectAt(value: unknown, key: string): object | null {
  if (!value || typeof value !== "object" || !Object.hasOwn(value, key)) return null;
  const inner = (value as Record<string, unknown>)[key];
  return inner && typeof inner === "object" && !Array.isArray(inner) ? inner : null;
}

/**
 * The first round: a prepared write put to the person. A form shows the preview and asks each
 * open question as a choice; a URL elicitation opens the confirm page. The signed state binds the
 * answer to this action, tool, arguments, user and workshop, and expires with the action.
 */
export async function askToConfirm(
  asking: Asking,
  { action, tool, args, ctx }: { action: PendingAction; tool: Tool; args: unknown; ctx: ToolContext },
): Promise<InputRequiredResult> {
  const state: ConfirmState = {
    actionId: action.actionId,
    mode: asking.mode,
    tool: tool.name,
    argsDigest: await argumentsDigest(args),
    tenantId: ctx.user.tenantId,
    userId: ctx.user.userId,
  };
  const request =
    asking.mode === "form"
      ? inputRequired.elicit({
          message: formMessage(action, await workshopMinute(ctx, action.expiresAt)),
          requestedSchema: choicesSchema(action.ambiguities, tool),
        })
      : inputRequired.elicitUrl({
          message: `${action.summary}\n请在 Weft 的确认页上查看并确认（确认后才会保存）。`,
          url: ctx.confirmUrl(action.actionId),
        });
  return inputRequired({ inputRequests: { [ANSWER]: request }, requestState: await asking.codec.mint(state) });
}

/**
 * A retried call that carries a state: the person's answer. The state must verify and belong to
 * this call (tool, arguments, user, workshop); then accept writes once (an answer that was already
 * used is refused), decline or cancel discards the action, and accepted choices prepare the write
 * again with them and ask once more, since its amounts may change with the choice. A URL
 * elicitation's answer only says the person went to the page: the action's state is reported.
 */
export async function answerRound({
  wire,
  tool,
  args,
  ctx,
  mcp,
  prepareAgain,
}: {
  wire: string;
  tool: Tool;
  args: unknown;
  ctx: ToolContext;
  mcp: ServerContext;
  prepareAgain: (args: Record<string, unknown>) => Promise<ToolOutcome>;
}): Promise<Round> {
  const asking = await askingFor(mcp, ctx);
  if (!asking) throw invalidState("this client cannot answer a confirmation");
  const state = await verified(asking.codec, wire, mcp);
  if (
    state.tool !== tool.name ||
    state.argsDigest !== (await argumentsDigest(args)) ||
    state.tenantId !== ctx.user.tenantId ||
    state.userId !== ctx.user.userId
  ) {
    throw invalidState("it belongs to another call");
  }
  const actions = ctx.services.actions;
  const view = await getAction({ actions, user: ctx.user, actionId: state.actionId });
  if (state.mode === "url") return { outcome: await urlOutcome(view, ctx) };
  if (view.status === "expired") throw expired(view);
  if (view.status !== "pending") throw alreadyUsed(view);

  // Only the client's own entry counts: the SDK copies entries into a plain object, where one sent
  // as `__proto__` would otherwise answer through the prototype.
  const responses = mcp.mcpReq.inputResponses;
  const answer = inputResponse(responses && Object.hasOwn(responses, ANSWER) ? responses : undefined, ANSWER);
  if (answer.kind !== "elicit") {
    // Retried without an answer: ask again, with the same action.
    return { ask: await askToConfirm({ ...asking, mode: state.mode }, { action: pendingResult(view), tool, args, ctx }) };
  }
  if (answer.action !== "accept") {
    const cancelled = await cancelAction({ actions, user: ctx.user, actionId: view.action_id, once: true });
    const structured = await actionViewResult(ctx, cancelled);
    return { outcome: { ok: true, kind: "result", structured, text: `The user declined. ${structured.summary}` } };
  }
  if (view.ambiguities.length > 0) {
    const choices = chosen(view.ambiguities, answer.content);
    // The answer counts once: of concurrent retries carrying it, one cancels the action and
    // prepares the write again; the others are refused here.
    await cancelAction({ actions, user: ctx.user, actionId: view.action_id, once: true });
    const again = await prepareAgain({ ...(args as Record<string, unknown>), ...choices });
    if (!again.ok || again.kind !== "pending_action") return { outcome: again };
    return { ask: await askToConfirm({ ...asking, mode: "form" }, { action: again.action, tool, args, ctx }) };
  }
  const confirmed = await confirmAction({
    actions,
    user: ctx.user,
    actionId: view.action_id,
    confirmation: { via: "elicitation" },
    once: true,
  });
  const structured = await actionViewResult(ctx, confirmed);
  return { outcome: { ok: true, kind: "result", structured, text: `Confirmed by the user. ${structured.summary}` } };
}

async function verified(codec: RequestStateCodec<ConfirmState>, wire: string, mcp: ServerContext): Promise<ConfirmState> {
  try {
    return await codec.verify(wire, mcp);
  } catch (error) {
    throw invalidState(error instanceof Error && error.message === "expired" ? "it expired" : "it is not one Weft issued");
  }
}

function invalidState(why: string): AppError {
  return new AppError(
    "request_state_invalid",
    `This confirmation answer cannot be used: ${why}. Nothing was written. Call the tool again for a new preview.`,
  );
}

function expired(view: ActionView): AppError {
  return new AppError(
    "action_expired",
    `This confirmation came too late: the action expired at ${view.expires_at}. Nothing was written; call the tool again.`,
    {
      details: { action: view },
    },
  );
}

function alreadyUsed(view: ActionView): AppError {
  return new AppError("action_not_confirmable", `This confirmation was already answered: the action is ${view.status}.`, {
    details: { action: view },
  });
}

/** A URL elicitation came back: what the person did on the confirm page, or the link again. */
async function urlOutcome(view: ActionView, ctx: ToolContext): Promise<ToolOutcome> {
  if (view.status === "pending") return { ok: true, kind: "pending_action", action: pendingResult(view) };
  const structured = await actionViewResult(ctx, view);
  return { ok: true, kind: "result", structured, text: structured.summary };
}

/** The preview as one message; every line is Weft's, since no value can start a line of its own. */
function formMessage(action: PendingAction, expires: string): string {
  return [
    "请确认这项写入（确认后才会保存）：",
    printable(action.summary),
    ...action.preview.map((field) => `${printable(field.label)}：${printable(field.value)}`),
    ...(action.ambiguities.length ? ["", "还需要您选择下面的项目；选好后会再给您看一次完整的预览。"] : []),
    `有效期至 ${expires}`,
  ].join("\n");
}

/**
 * Each open question as a single choice among its candidates, titled in the tool's words for the
 * field (员工, 工序, 订单); no fields when nothing is open.
 */
function choicesSchema(ambiguities: readonly Ambiguity[], tool: Tool): ElicitRequestFormParams["requestedSchema"] {
  const fields = tool.kind === "weft" ? (tool.words.fields ?? {}) : {};
  const properties: Record<string, { type: "string"; title: string; oneOf: { const: string; title: string }[] }> = {};
  for (const ambiguity of ambiguities) {
    properties[ambiguity.field] = {
      type: "string",
      title: Object.hasOwn(fields, ambiguity.field) ? (fields[ambiguity.field]?.zh ?? ambiguity.field) : ambiguity.field,
      oneOf: ambiguity.candidates.map((candidate) => ({ const: candidate.id, title: candidate.label })),
    };
  }
  return { type: "object", properties, required: ambiguities.map((a) => a.field) };
}

/** The person's choices, each checked against its question's candidates. */
function chosen(ambiguities: readonly Ambiguity[], content: Record<string, unknown> | undefined): Record<string, string> {
  const choices: Record<string, string> = {};
  for (const ambiguity of ambiguities) {
    const value = content && Object.hasOwn(content, ambiguity.field) ? content[ambiguity.field] : undefined;
    if (typeof value !== "string" || !ambiguity.candidates.some((candidate) => candidate.id === value)) {
      throw new AppError(
        "invalid_input",
        `The answer must choose one of the offered ${ambiguity.field} candidates. Nothing was written; call the tool again.`,
      );
    }
    choices[ambiguity.field] = value;
  }
  return choices;
}
