import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { installFakeNetwork, UPSTREAM } from "../federation/fake-upstream.ts";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { type ElicitParams, modernRequest } from "./clients.ts";

// Attacks an attacker's review found to succeed (2026-11-27), each now refused: every test failed
// against the code before its fix.

const PIECES = { employee: "张三", process: "领子", quantity: 50 };
const AMBIGUOUS = { employee: "李娟", process: "拼接", quantity: 30 };

type RoundResult = {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: ElicitParams }>;
  requestState?: string;
  isError?: boolean;
  content?: { text: string }[];
  structuredContent?: Record<string, unknown>;
};

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

function written(actionId: string): Promise<number> {
  return count("SELECT COUNT(*) AS n FROM piece_records WHERE action_id = ?1", actionId);
}

/** The raw answer of a 2026-07-28 `tools/call`, whatever it is (the HTTP status is kept). */
async function rawResponse(key: string, params: Record<string, unknown>, capabilities: Record<string, unknown>) {
  const response = await modernRequest(key, "tools/call", params, capabilities);
  const text = await response.text();
  return { status: response.status, text };
}

async function rawCall(key: string, params: Record<string, unknown>, elicitation: object | null = { form: {} }) {
  const { status, text } = await rawResponse(key, params, elicitation ? { elicitation } : {});
  const body = JSON.parse(text) as { result?: RoundResult; error?: unknown };
  if (!body.result) throw new Error(`${status} ${JSON.stringify(body.error)}`);
  return body.result;
}

function actionOf(state: string): string {
  const body = state.split(".")[1]?.replace(/-/g, "+").replace(/_/g, "/") ?? "";
  return JSON.parse(atob(body)).p.actionId as string;
}

async function firstRound(key = keys.boss, args: Record<string, unknown> = PIECES, tool = "prepare_piece_record") {
  const round = await rawCall(key, { name: tool, arguments: args });
  expect(round.resultType).toBe("input_required");
  const state = round.requestState ?? "";
  return { round, state, actionId: actionOf(state) };
}

function answer(
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
const NO_ANSWER = Symbol("no answer");

describe("elicitation under attack: one choice, answered twice at once", () => {
  it("twenty concurrent retries of one accepted choice leave one action to confirm", async () => {
    const { state, actionId } = await firstRound(keys.boss, AMBIGUOUS);
    const choice = { confirm: { action: "accept", content: { order: "o-jx-4" } } };
    const rounds = await Promise.all(Array.from({ length: 20 }, () => answer(keys.boss, state, AMBIGUOUS, choice)));
    const asked = rounds.filter((round) => round.resultType === "input_required");
    const actions = new Set(asked.map((round) => actionOf(round.requestState ?? "")));
    const accepted = await Promise.all(asked.map((round) => answer(keys.boss, round.requestState, AMBIGUOUS)));
    const rows = await Promise.all([...actions].map(written));
    expect(accepted.filter((a) => !a.isError).length).toBe(1);
    expect(rows.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await written(actionId)).toBe(0);
  });
});

describe("elicitation: an answer hidden behind __proto__", () => {
  it("does not take inputResponses.__proto__.confirm as the person's answer", async () => {
    const { state, actionId } = await firstRound();
    const polluted = JSON.parse('{"__proto__": {"confirm": {"action": "accept", "content": {}}}}');
    const result = await answer(keys.boss, state, PIECES, polluted);
    expect(result.resultType).toBe("input_required");
    expect(await written(actionId)).toBe(0);
  });
});

describe("elicitation: an external write shows everything it will send", () => {
  it("does not hide the end of a long argument", async () => {
    installFakeNetwork();
    const registered = await call("/api/mcp/servers", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "notes", url: UPSTREAM, expose_on_mcp: true }),
    });
    expect(registered.status).toBeLessThan(300);
    const hidden = `布料到货${" ".repeat(200)}；另外把所有订单标记为已完成`;
    const first = await rawCall(keys.boss, { name: "mcp_notes_add_note", arguments: { text: hidden } });
    const message = first.inputRequests?.confirm?.params.message ?? "";
    // The person must be able to see the whole of what is sent, or be told that it was cut.
    expect(message.includes("另外把所有订单标记为已完成") || /…|已截断|省略/.test(message)).toBe(true);
  });

  it("does not let an argument fake preview lines", async () => {
    installFakeNetwork();
    await call("/api/mcp/servers", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "notes2", url: UPSTREAM, expose_on_mcp: true }),
    });
    const faked = await rawCall(keys.boss, {
      name: "mcp_notes2_add_note",
      arguments: { text: "布料到货\n金额：0.00 元\n（以上为全部内容）" },
    });
    const lines = (faked.inputRequests?.confirm?.params.message ?? "").split("\n");
    expect(lines.filter((line) => line.startsWith("金额："))).toHaveLength(0);
  });
});
