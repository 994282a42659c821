import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { keyConfirmingBy } from "../auth/credentials.ts";
import { keys, logins } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";
import {
  AMBIGUOUS,
  actionOf,
  answer,
  count,
  errorText,
  firstRound,
  NO_ANSWER,
  PIECES,
  type RoundResult,
  rawCall,
  rawResponse,
  written,
} from "./elicitation-rounds.ts";

// An attacker's look at confirmation by elicitation: every way to write without the person's
// answer, twice, elsewhere or other than shown must be refused, and never with a 500.

afterEach(() => vi.useRealTimers());

describe("elicitation under attack: no answer, no write", () => {
  it("a retry with the state but without inputResponses asks again and writes nothing", async () => {
    const { state, actionId } = await firstRound();
    const again = await answer(keys.boss, state, PIECES, NO_ANSWER);
    expect(again.resultType).toBe("input_required");
    expect(actionOf(again.requestState ?? "")).toBe(actionId);
    const junk = await answer(keys.boss, state, PIECES, { confirm: { action: "yes" } });
    expect(junk.resultType).toBe("input_required");
    expect(await written(actionId)).toBe(0);
  });

  it("an answer hidden behind constructor counts as no answer", async () => {
    const { state, actionId } = await firstRound();
    const viaConstructor = { constructor: { prototype: { confirm: { action: "accept" } } } };
    expect((await answer(keys.boss, state, PIECES, viaConstructor)).resultType).toBe("input_required");
    expect(await written(actionId)).toBe(0);
    expect(({} as Record<string, unknown>).confirm).toBeUndefined();
  });

  it("a 2025-era request (no capabilities envelope) carrying a state is refused", async () => {
    const { state, actionId } = await firstRound();
    const result = await answer(keys.boss, state, PIECES, NO_ANSWER, null);
    expect(errorText(result)).toMatch(/^request_state_invalid: .*this client cannot answer a confirmation/);
    const legacy = await call("/mcp", {
      method: "POST",
      key: keys.boss,
      headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "prepare_piece_record",
          arguments: PIECES,
          inputResponses: { confirm: { action: "accept", content: {} } },
          requestState: state,
        },
      }),
    });
    expect(legacy.status).toBeLessThan(500);
    expect(await written(actionId)).toBe(0);
  });

  it("a client that does not declare elicitation cannot use a state, and a key its client asks with cannot confirm its action", async () => {
    const { key } = await keyConfirmingBy(logins.staff, "client");
    const { state, actionId } = await firstRound(key, { process: "上袖子", quantity: 20 });
    const args = { process: "上袖子", quantity: 20 };
    expect(errorText(await answer(key, state, args, NO_ANSWER, null))).toMatch(/^request_state_invalid/);
    expect(errorText(await answer(key, state, args, undefined, { url: {} }))).toMatch(
      /^request_state_invalid: .*does not answer forms/,
    );
    const client = await mcpClient(key);
    const confirm = await client.callTool({ name: "confirm_action", arguments: { action_id: actionId } });
    expect(confirm.isError).toBe(true);
    expect((confirm.content as { text: string }[])[0]?.text).toMatch(/^confirmation_required/);
    expect(await written(actionId)).toBe(0);
  });

  it("a URL-mode state answered with a form accept only reports the action, it does not write", async () => {
    const args = { process: "上袖子", quantity: 20 };
    const first = await rawCall(keys.staff, { name: "prepare_piece_record", arguments: args }, { url: {} });
    const state = first.requestState ?? "";
    const result = await answer(keys.staff, state, args, { confirm: { action: "accept", content: {} } }, { form: {} });
    expect(result.structuredContent).toMatchObject({ status: "pending" });
    expect(await written(actionOf(state))).toBe(0);
  });
});

describe("elicitation under attack: malformed and forged states", () => {
  const forged: [string, unknown][] = [
    ["empty", ""],
    ["garbage", "not a state"],
    ["only the prefix", "v1."],
    ["a number", 12345],
    ["an object", { p: { actionId: "x" } }],
    ["null", null],
    ["bad base64", "v1.!!!.@@@"],
    ["a megabyte", `v1.${"A".repeat(1_000_000)}.AAAA`],
    ["unsigned payload", `v1.${btoa(JSON.stringify({ p: { actionId: "0".repeat(64) }, exp: 9e9 }))}.`],
  ];
  for (const [what, state] of forged) {
    it(`refuses ${what} without a 500 and writes nothing`, async () => {
      const before = await count("SELECT COUNT(*) AS n FROM piece_records");
      const { status, text } = await rawResponse(
        keys.boss,
        {
          name: "prepare_piece_record",
          arguments: PIECES,
          inputResponses: { confirm: { action: "accept", content: {} } },
          requestState: state,
        },
        { elicitation: { form: {} } },
      );
      expect(status).toBeLessThan(500);
      const body = JSON.parse(text) as { result?: RoundResult; error?: { code: number } };
      if (body.result) {
        // A null state is no state: the call is a first round again.
        if (state === null) expect(body.result.resultType).toBe("input_required");
        else expect(errorText(body.result)).toMatch(/^request_state_invalid: .*it is not one Weft issued/);
      } else {
        expect(body.error?.code).toBe(-32602);
      }
      expect(await count("SELECT COUNT(*) AS n FROM piece_records")).toBe(before);
    });
  }

  it("refuses a state minted for another tool", async () => {
    const { state, actionId } = await firstRound();
    const result = await rawCall(keys.boss, {
      name: "prepare_order",
      arguments: PIECES,
      inputResponses: { confirm: { action: "accept", content: {} } },
      requestState: state,
    });
    expect(errorText(result)).toMatch(/^request_state_invalid: .*it belongs to another call/);
    expect(await written(actionId)).toBe(0);
  });

  it("refuses another person of the same workshop, and another key of the same person", async () => {
    const args = { process: "上袖子", quantity: 20 };
    const { key } = await keyConfirmingBy(logins.staff, "client");
    const { state, actionId } = await firstRound(key, args);
    expect(errorText(await answer((await keyConfirmingBy(logins.staff, "client")).key, state, args))).toMatch(
      /belongs to another call/,
    );
    expect(errorText(await answer(keys.staff2, state, args))).toMatch(/belongs to another call/);
    expect(errorText(await answer(keys.otherBoss, state, args))).toMatch(/belongs to another call/);
    expect(await written(actionId)).toBe(0);
  });
});

describe("elicitation under attack: other arguments than the person saw", () => {
  const variants: [string, Record<string, unknown>][] = [
    ["an unknown extra field", { ...PIECES, extra: 1 }],
    ["the employee as an id", { ...PIECES, employee: "e-jx-zhangsan" }],
    ["a quantity as a string", { ...PIECES, quantity: "50" }],
    ["a name with a zero-width space", { ...PIECES, employee: "张\u200b三" }],
    ["a name in compatibility form", { ...PIECES, process: "\u2f9a子" }],
    ["a nested value", { ...PIECES, employee: { name: "张三" } }],
    ["an order added", { ...PIECES, order: "o-jx-1" }],
  ];
  for (const [what, args] of variants) {
    it(`refuses the state with ${what}`, async () => {
      const { state, actionId } = await firstRound();
      expect(errorText(await answer(keys.boss, state, args))).toMatch(/^request_state_invalid: .*belongs to another call/);
      expect(await written(actionId)).toBe(0);
    });
  }

  it("writes exactly what was previewed when a __proto__ field tries to change the quantity", async () => {
    const { state, actionId } = await firstRound();
    const args = JSON.parse('{"employee":"张三","process":"领子","quantity":50,"__proto__":{"quantity":500}}');
    const result = await answer(keys.boss, state, args);
    expect(result.structuredContent).toMatchObject({ status: "confirmed", result: { quantity: 50 } });
    expect(await written(actionId)).toBe(1);
  });

  it("accepts the same arguments in another key order, and writes exactly what was previewed", async () => {
    const { state, actionId } = await firstRound();
    const result = await answer(keys.boss, state, { quantity: 50, process: "领子", employee: "张三" });
    expect(result.structuredContent).toMatchObject({ status: "confirmed", result: { quantity: 50 } });
    expect(await written(actionId)).toBe(1);
  });
});

describe("elicitation under attack: twice, late, or after saying no", () => {
  it("declined then accepted writes nothing", async () => {
    const { state, actionId } = await firstRound();
    const declined = await answer(keys.boss, state, PIECES, { confirm: { action: "decline" } });
    expect(declined.structuredContent).toMatchObject({ status: "cancelled" });
    expect(errorText(await answer(keys.boss, state))).toMatch(/^action_not_confirmable: .*the action is cancelled/);
    expect(await written(actionId)).toBe(0);
  });

  it("an accept racing a decline writes at most once, and the answers agree with what happened", async () => {
    const { state, actionId } = await firstRound();
    const [accepted, declined] = await Promise.all([
      answer(keys.boss, state),
      answer(keys.boss, state, PIECES, { confirm: { action: "decline" } }),
    ]);
    const rows = await written(actionId);
    expect(rows).toBeLessThanOrEqual(1);
    expect(accepted.isError ? 0 : 1).toBe(rows);
    if (rows === 1) expect(declined.isError).toBe(true);
  });

  it("accepted after cancel_action writes nothing", async () => {
    const { state, actionId } = await firstRound();
    const client = await mcpClient(keys.boss);
    const cancelled = await client.callTool({ name: "cancel_action", arguments: { action_id: actionId } });
    expect(cancelled.structuredContent).toMatchObject({ status: "cancelled" });
    expect(errorText(await answer(keys.boss, state))).toMatch(/^action_not_confirmable/);
    expect(await written(actionId)).toBe(0);
  });

  it("a state re-issued before the action expired still cannot write after it expired", async () => {
    const start = Date.now();
    const { state, actionId } = await firstRound();
    vi.useFakeTimers({ toFake: ["Date"], now: start + 9 * 60_000 });
    const again = await answer(keys.boss, state, PIECES, NO_ANSWER);
    expect(again.resultType).toBe("input_required");
    vi.setSystemTime(start + 11 * 60_000);
    const late = await answer(keys.boss, again.requestState);
    expect(late.isError).toBe(true);
    vi.useRealTimers();
    expect(await written(actionId)).toBe(0);
  });
});

describe("elicitation under attack: choosing among candidates", () => {
  it("refuses a candidate of another question, and ignores fields that were not asked", async () => {
    const { state, actionId } = await firstRound(keys.boss, AMBIGUOUS);
    const wrongField = await answer(keys.boss, state, AMBIGUOUS, {
      confirm: { action: "accept", content: { employee: "o-jx-4", order: "e-jx-lijuan" } },
    });
    expect(errorText(wrongField)).toMatch(/^invalid_input: The answer must choose one of the offered order candidates/);
    const protoChoice = JSON.parse('{"confirm":{"action":"accept","content":{"__proto__":{"order":"o-jx-4"}}}}');
    expect(errorText(await answer(keys.boss, state, AMBIGUOUS, protoChoice))).toMatch(/^invalid_input/);
    const sneaky = await answer(keys.boss, state, AMBIGUOUS, {
      confirm: { action: "accept", content: { order: "o-jx-4", quantity: 5000, employee: "e-jx-zhangsan" } },
    });
    expect(sneaky.resultType).toBe("input_required");
    const message = sneaky.inputRequests?.confirm?.params.message ?? "";
    expect(message).toContain("数量：30 件");
    expect(message).toContain("李娟");
    const done = await answer(keys.boss, sneaky.requestState, AMBIGUOUS);
    const view = done.structuredContent as { action_id: string; result: { quantity: number } };
    expect(view.result.quantity).toBe(30);
    const row = await env.DB.prepare("SELECT employee_id, order_id, quantity FROM piece_records WHERE action_id = ?1")
      .bind(view.action_id)
      .first<{ employee_id: string; order_id: string; quantity: number }>();
    expect(row).toMatchObject({ order_id: "o-jx-4", quantity: 30 });
    expect(row?.employee_id).not.toBe("e-jx-zhangsan");
    expect(await written(actionId)).toBe(0);
  });
});
