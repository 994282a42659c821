import { describe, expect, it } from "vitest";
import { installFakeNetwork, UPSTREAM } from "../federation/fake-upstream.ts";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { AMBIGUOUS, actionOf, answer, firstRound, PIECES, rawCall, written } from "./elicitation-rounds.ts";

// Attacks an attacker's review found to succeed (2026-11-27), each now refused: every test failed
// against the code before its fix.

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
