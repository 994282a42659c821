import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { keys } from "../fixtures.ts";
import { type ElicitParams, modernRequest } from "./clients.ts";

// Raw 2026-07-28 rounds of confirmation by elicitation, for the tests that send them by hand: a
// first round, a retry with an answer, and what was written.

export const PIECES = { employee: "张三", process: "领子", quantity: 50 };
export const AMBIGUOUS = { employee: "李娟", process: "拼接", quantity: 30 };

export type RoundResult = {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: ElicitParams }>;
  requestState?: string;
  isError?: boolean;
  content?: { text: string }[];
  structuredContent?: Record<string, unknown>;
};

export async function count(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export function written(actionId: string): Promise<number> {
  return count("SELECT COUNT(*) AS n FROM piece_records WHERE action_id = ?1", actionId);
}

/** The raw answer of a 2026-07-28 `tools/call`, whatever it is (the HTTP status is kept). */
export async function rawResponse(key: string, params: Record<string, unknown>, capabilities: Record<string, unknown>) {
  const response = await modernRequest(key, "tools/call", params, capabilities);
  const text = await response.text();
  return { status: response.status, text };
}

export async function rawCall(key: string, params: Record<string, unknown>, elicitation: object | null = { form: {} }) {
  const { status, text } = await rawResponse(key, params, elicitation ? { elicitation } : {});
  const body = JSON.parse(text) as { result?: RoundResult; error?: unknown };
  if (!body.result) throw new Error(`${status} ${JSON.stringify(body.error)}`);
  return body.result;
}

export function actionOf(state: string): string {
  const body = state.split(".")[1]?.replace(/-/g, "+").replace(/_/g, "/") ?? "";
  return JSON.parse(atob(body)).p.actionId as string;
}

export async function firstRound(key: string = keys.boss, args: Record<string, unknown> = PIECES, tool = "prepare_piece_record") {
  const round = await rawCall(key, { name: tool, arguments: args });
  expect(round.resultType).toBe("input_required");
  const state = round.requestState ?? "";
  return { round, state, actionId: actionOf(state) };
}

export function answer(
  key: string,
  state: unknown,
  args: Record<string, unknown> = PIECES,
  inputResponses: unknown = { confirm: { action: "accept", content: {} } },
  elicitation: object | null = { form: {} },
) {
  const responses = inputResponses === NO_ANSWER ? {} : { inputResponses };
  return rawCall(key, { name: "prepare_piece_record", arguments: args, ...responses, requestState: state }, elicitation);
}

/** Leaves `inputResponses` out of a retry. */
export const NO_ANSWER = Symbol("no answer");

export function errorText(result: RoundResult): string {
  expect(result.isError).toBe(true);
  return result.content?.[0]?.text ?? "";
}
