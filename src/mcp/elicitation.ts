import {
  CLIENT_CAPABILITIES_META_KEY,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { cancelAction, confirmAction, getAction, refuseConfirm } from "../actions/actions.ts";
import { localMinute } from "../business/local-time.ts";
import { AppError } from "../errors.ts";
import { printable } from "../printable.ts";
import type { Ambiguity, PendingAction } from "../shapes.ts";
import { actionViewResult, workshopTimeZone } from "../tools/action-results.ts";
import { confirmAllows } from "../tools/confirm-by.ts";
import type { ToolOutcome } from "../tools/run-tool.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";
import { argumentsDigest, type ConfirmState, confirmStateCodec } from "./request-state.ts";

/** The key of the one input request a confirmation round makes. */
const ANSWER = "confirm";
/** What the confirm page is opened with by a URL elicitation, so the yes it records says so. */
const URL_ELICITATION_QUERY = "via=url_elicitation";

/** How a client can put a prepared write to its person in-band, and the codec its states are signed with. */
export interface Asking {
  mode: "form" | "url";
  codec: RequestStateCodec<ConfirmState>;
}

/** A round's answer to a `tools/call`: ask the person (again), or the tool's outcome. */
export type Round = { ask: InputRequiredResult } | { outcome: ToolOutcome };

/**
 * How this request's client may put a prepared write to its person, if at all. Only a 2026-07-28
 * request carries its capabilities (a 2025-era client declared them in an `initialize` that a
 * stateless server never sees again, and cannot answer `input_required` anyway). A form, where the
 * person answers in the client, only where the credential's owner chose to let their client ask
 * (`confirm_by` `client` or `agent`): a client's claim that it asked is otherwise not enough. A
 * client that opens URLs is sent to the confirm page, Weft's own, whatever the setting.
 */
export async function askingFor(mcp: ServerContext, ctx: ToolContext): Promise<Asking | null> {
  const declared = declaredModes(mcp);
  const mode = declared.form && confirmAllows(ctx.confirming.by, "client") ? "form" : declared.url ? "url" : null;
  if (!mode) return null;
  const codec = await codecFor(ctx);
  return codec ? { mode, codec } : null;
}

/** The elicitation modes this request's client declares (2026-07-28 requests only carry them). */
function declaredModes(mcp: ServerContext): { form: boolean; url: boolean } {
  const elicitation = objectAt(objectAt(mcp.mcpReq.envelope, CLIENT_CAPABILITIES_META_KEY), "elicitation");
  if (!elicitation) return { form: false, url: false };
  // An empty `elicitation` capability means form mode (as in the 2025-11-25 revision).
  return {
    form: Object.hasOwn(elicitation, "form") || !Object.hasOwn(elicitation, "url"),
    url: Object.hasOwn(elicitation, "url"),
  };
}

function codecFor(ctx: ToolContext): Promise<RequestStateCodec<ConfirmState>> | null {
  return confirmStateCodec(ctx.config.federation.secretsKey, ctx.services.actions.ttlSeconds);
}

function objectAt(value: unknown, key: string): object | null {
  if (!value || typeof value !== "object" || !Object.hasOwn(value, key)) return null;
  const inner = (value as Record<string, unknown>)[key];
  return inner && typeof inner === "object" && !Array.isArray(inner) ? inner : null;
}

/**
 * The first round: a prepared write put to the person. A form shows the preview and asks each
 * open question as a choice; a URL elicitation opens the confirm page (which then records the yes
 * as `url_elicitation`). The signed state binds the answer to this action, tool, arguments, user,
 * workshop and credential, and expires with the action.
 */
export async function askToConfirm(
  asking: Asking,
  { action, tool, args, ctx }: { action: PendingAction; tool: Tool; args: unknown; ctx: ToolContext },
): Promise<InputRequiredResult> {
  const state: ConfirmState = {
    actionId: action.action_id,
    mode: asking.mode,
    tool: tool.name,
    argsDigest: await argumentsDigest(args),
    tenantId: ctx.user.tenantId,
    userId: ctx.user.userId,
    credential: ctx.confirming.credentialId,
  };
  const request =
    asking.mode === "form"
      ? inputRequired.elicit({
          message: formMessage(action, await workshopTimeZone(ctx)),
          requestedSchema: choicesSchema(action.ambiguities, tool),
        })
      : inputRequired.elicitUrl({
          message: `${action.summary}\n请在 Weft 的确认页上查看并确认（确认后才会保存）。`,
          url: `${action.confirm_url}?${URL_ELICITATION_QUERY}`,
        });
  return inputRequired({ inputRequests: { [ANSWER]: request }, requestState: await asking.codec.mint(state) });
}

/**
 * A retried call that carries a state: the person's answer. The state must verify and belong to
 * this call (tool, arguments, user, workshop); then accept writes once (an answer that was already
 * used is refused), decline or cancel discards the action, and accepted choices prepare the write
 * again with them and ask once more, since its amounts may change with the choice. An accepted
 * form counts only while the credential lets the client ask (`confirm_by` `client` or `agent`):
 * otherwise the person is sent to the confirm page. A URL elicitation's answer only says the
 * person went to the page: the action's state is reported.
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
  const codec = await codecFor(ctx);
  const declared = declaredModes(mcp);
  if (!codec || (!declared.form && !declared.url)) throw invalidState("this client cannot answer a confirmation");
  const state = await verified([codec, ...(await olderCodecs(ctx))], wire, mcp);
  if (
    state.tool !== tool.name ||
    state.argsDigest !== (await argumentsDigest(args)) ||
    state.tenantId !== ctx.user.tenantId ||
    state.userId !== ctx.user.userId ||
    state.credential !== ctx.confirming.credentialId
  ) {
    throw invalidState("it belongs to another call");
  }
  const actions = ctx.services.actions;
  const view = await getAction({ actions, user: ctx.user, actionId: state.actionId });
  if (state.mode === "url") return { outcome: urlOutcome(view) };
  if (view.status === "expired") throw expired(view);
  if (view.status !== "pending") throw alreadyUsed(view);
  if (!declared.form) throw invalidState("this client does not answer forms");
  // A form round (minted before its credential's owner chose otherwise) counts only while they let the client ask.
  if (!confirmAllows(ctx.confirming.by, "client")) {
    return refuseConfirm({
      actions,
      user: ctx.user,
      actionId: view.action_id,
      why: "Whoever owns this key or connection chose that writes are confirmed on Weft's own page, not in the MCP client.",
    });
  }

  // Only the client's own entry counts: the SDK copies entries into a plain object, where one sent
  // as `__proto__` would otherwise answer through the prototype.
  const responses = mcp.mcpReq.inputResponses;
  const answer = inputResponse(responses && Object.hasOwn(responses, ANSWER) ? responses : undefined, ANSWER);
  if (answer.kind !== "elicit") {
    // Retried without an answer: ask again, with the same action.
    return { ask: await askToConfirm({ mode: "form", codec }, { action: view, tool, args, ctx }) };
  }
  if (answer.action !== "accept") {
    const cancelled = await cancelAction({ actions, user: ctx.user, actionId: view.action_id, once: true });
    const structured = actionViewResult(cancelled);
    return { outcome: { ok: true, kind: "result", structured, text: `The user declined. ${structured.tell_user}` } };
  }
  if (view.ambiguities.length > 0) {
    const choices = chosen(view.ambiguities, answer.content);
    // The answer counts once: of concurrent retries carrying it, one cancels the action and
    // prepares the write again; the others are refused here.
    await cancelAction({ actions, user: ctx.user, actionId: view.action_id, once: true });
    const again = await prepareAgain({ ...(args as Record<string, unknown>), ...choices });
    if (!again.ok || again.kind !== "pending_action") return { outcome: again };
    return { ask: await askToConfirm({ mode: "form", codec }, { action: again.action, tool, args, ctx }) };
  }
  // The approval records the message the form showed, with its expiry in the same zone.
  const timeZone = await workshopTimeZone(ctx);
  const confirmed = await confirmAction({
    actions,
    user: ctx.user,
    actionId: view.action_id,
    confirmation: {
      via: "form_elicitation",
      credential: ctx.confirming.credential,
      shown: (action) => formMessage(action, timeZone),
    },
    once: true,
  });
  const structured = actionViewResult(confirmed);
  return { outcome: { ok: true, kind: "result", structured, text: `Confirmed by the user. ${structured.tell_user}` } };
}

/**
 * The codecs of the keys that sealed before a rotation of `MCP_SECRETS_KEY` began: a state signed
 * a moment before it still verifies while the rotation runs.
 */
async function olderCodecs(ctx: ToolContext): Promise<RequestStateCodec<ConfirmState>[]> {
  const ttl = ctx.services.actions.ttlSeconds;
  const codecs = ctx.config.federation.olderSecretsKeys.map((key) => confirmStateCodec(key, ttl));
  return Promise.all(codecs.filter((codec) => codec !== null));
}

/** The state, verified by the first codec whose key signed it. */
async function verified(codecs: RequestStateCodec<ConfirmState>[], wire: string, mcp: ServerContext): Promise<ConfirmState> {
  let expired = false;
  for (const codec of codecs) {
    try {
      return await codec.verify(wire, mcp);
    } catch (error) {
      expired ||= error instanceof Error && error.message === "expired";
    }
  }
  throw invalidState(expired ? "it expired" : "it is not one Weft issued");
}

function invalidState(why: string): AppError {
  return new AppError(
    "request_state_invalid",
    `This confirmation answer cannot be used: ${why}. Nothing was written. Call the tool again for a new preview.`,
  );
}

function expired(view: PendingAction): AppError {
  return new AppError(
    "action_expired",
    `This confirmation came too late: the action expired at ${view.expires_at}. Nothing was written; call the tool again.`,
    {
      details: { action: view },
    },
  );
}

function alreadyUsed(view: PendingAction): AppError {
  return new AppError("action_not_confirmable", `This confirmation was already answered: the action is ${view.status}.`, {
    details: { action: view },
  });
}

/** A URL elicitation came back: what the person did on the confirm page, or the link again. */
function urlOutcome(view: PendingAction): ToolOutcome {
  if (view.status === "pending") return { ok: true, kind: "pending_action", action: view };
  const structured = actionViewResult(view);
  return { ok: true, kind: "result", structured, text: structured.tell_user };
}

/**
 * The preview as one message (what a form elicitation shows, and what its approval records as
 * shown): when it lapses in the workshop's time (`timeZone`), not UTC; every line is Weft's, since
 * no value can start a line of its own.
 */
function formMessage(action: PendingAction, timeZone: string): string {
  return [
    "请确认这项写入（确认后才会保存）：",
    printable(action.summary),
    ...action.preview.map((field) => `${printable(field.label)}：${printable(field.value)}`),
    ...(action.ambiguities.length ? ["", "还需要您选择下面的项目；选好后会再给您看一次完整的预览。"] : []),
    `有效期至 ${localMinute(new Date(action.expires_at), timeZone)} (${timeZone})`,
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
