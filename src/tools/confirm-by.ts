import type { ConfirmBy, PreparedIn } from "../shapes.ts";
import type { Confirming } from "./tool.ts";

// What a credential's `confirm_by` allows, and how an agent is told so: in the pending result,
// the descriptions of the tools that prepare or confirm writes, and the task prompts.

const RANK: Readonly<Record<ConfirmBy, number>> = { weft: 0, client: 1, agent: 2 };

/** Every value of `confirm_by`, from the strictest. */
export const CONFIRM_BY = Object.keys(RANK) as [ConfirmBy, ...ConfirmBy[]];

/**
 * Whether a credential set to `by` lets `who` say yes: `client`, the person answering in their MCP
 * client (a form elicitation); `agent`, the agent on its own (`confirm_action`). Each setting
 * allows what the stricter ones do; Weft's own card and page are always open to the person.
 */
export function confirmAllows(by: ConfirmBy, who: "client" | "agent"): boolean {
  return RANK[by] >= RANK[who];
}

/**
 * What an agent should do with a prepared write, given what its credential allows (a pending
 * result's `next_step`, and its text): the action's id where the agent confirms it itself, the
 * confirm page (`confirm_url`, beside it in the result, and in the words for the person) otherwise.
 */
export function nextStepFor(by: ConfirmBy, actionId: string): string {
  if (confirmAllows(by, "agent")) {
    return `Ask the user about the preview; only on their yes call confirm_action with action_id "${actionId}", on no cancel_action. Never confirm on your own initiative.`;
  }
  return `Show the preview and give the user confirm_url to confirm it there, signed in to Weft. ${CANNOT_CONFIRM[by]} If they say no, call cancel_action.`;
}

const CANNOT_CONFIRM: Readonly<Record<ConfirmBy, string>> = {
  weft: "Writes made with this key or connection are confirmed on Weft's own page only (its owner's setting, confirm_by: weft), so confirm_action will not work.",
  client:
    "Writes made with this key or connection are confirmed by the person themselves, in their MCP client or on Weft's page (its owner's setting, confirm_by: client), so confirm_action will not work.",
  agent: "",
};

/** A sentence for the descriptions of tools that prepare or confirm writes: what this credential allows. */
export function confirmNote(by: ConfirmBy): string {
  switch (by) {
    case "agent":
      return "With this connection you may call confirm_action yourself, but only after the user said yes to the preview.";
    case "client":
      return "With this connection the user confirms each write themselves, asked by their MCP client or on Weft's confirm page (confirm_url); confirm_action is refused.";
    case "weft":
      return "With this connection the user confirms each write on Weft's confirm page (confirm_url), signed in; confirm_action is refused.";
  }
}

/** The workshop's words (Chinese) in a task prompt for what happens after the preview, by what the credential allows. */
export function promptConfirmStep(by: ConfirmBy): string {
  switch (by) {
    case "agent":
      return "我说“确认”之后再调用 confirm_action，我说不要就调用 cancel_action。";
    case "client":
      return "写入由我亲自确认：客户端能问我时会直接问我；不能时把预览里的确认链接（confirm_url）给我，我登录 Weft 后在确认页上确认。不要调用 confirm_action；我说不要就调用 cancel_action。";
    case "weft":
      return "写入由我在 Weft 上确认：把预览里的确认链接（confirm_url）给我，我登录 Weft 后在确认页上确认。不要调用 confirm_action；我说不要就调用 cancel_action。";
  }
}

/**
 * Whether a tool's use ends in a person's yes: it prepares a write (Weft's `prepares`, or an
 * external tool not marked read-only), or it is `confirm_action`. Its description then says what
 * the credential allows (`confirmNote`).
 */
export function endsInConfirmation(tool: {
  name: string;
  kind: "weft" | "json-schema";
  prepares?: string | readonly string[];
  annotations: { readOnlyHint?: boolean };
}): boolean {
  if (tool.name === "confirm_action" || tool.prepares !== undefined) return true;
  return tool.kind === "json-schema" && tool.annotations.readOnlyHint !== true;
}

/**
 * Where a write prepared with these confirming rights was prepared, for its confirm page: a browser
 * session is Weft's own chat; an OAuth connection, its MCP client by name; a key, an agent by the
 * key's visible prefix.
 */
export function preparedInOf(confirming: Confirming): PreparedIn {
  if (confirming.credentialId === "session" || confirming.credential === null) return { via: "chat" };
  if (confirming.credentialId.startsWith("oauth:")) return { via: "client", name: confirming.credential };
  return { via: "agent_key", name: confirming.credential };
}
