import { afterEach, describe, expect, it, vi } from "vitest";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { dbOf, keys, logins } from "../fixtures.ts";
import { mcpClient } from "../helpers.ts";
import { askingClient } from "./clients.ts";
import { answer, count, errorText, firstRound, PIECES, rawCall, written } from "./elicitation-rounds.ts";

// A 2026-07-28 client that can ask its person gets every prepared write as an elicitation: the
// person's answer, not the agent, says yes; the answer is bound to the call and counts once.

function zhangSanPieces(): Promise<number> {
  return count("SELECT COALESCE(SUM(quantity), 0) AS n FROM piece_records WHERE employee_id = 'e-jx-zhangsan'");
}

afterEach(() => vi.useRealTimers());

describe("confirmation by elicitation (2026-07-28 clients)", () => {
  it("shows the preview in the person's language; on accept writes once and 张三's total grows by 50", async () => {
    const before = await zhangSanPieces();
    const { client, asked } = await askingClient(keys.boss, () => ({ action: "accept", content: {} }));
    const result = await client.callTool({ name: "prepare_piece_record", arguments: PIECES });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain("请确认这项写入");
    for (const label of ["员工：张三", "工序：", "数量：50 件", "订单：", "单价：", "金额：40.00 元"]) {
      expect(asked[0]?.message).toContain(label);
    }
    const view = result.structuredContent as { action_id: string; status: string; result: { quantity: number } };
    expect(view).toMatchObject({ status: "confirmed", result: { quantity: 50 } });
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^Confirmed by the user\. 已确认并写入：计件登记：张三/);
    expect(await written(view.action_id)).toBe(1);
    expect(await zhangSanPieces()).toBe(before + 50);
    const audit = await dbOf("t-jinxiu")
      .prepare("SELECT confirmed_via, user_id FROM business_audit WHERE action_id = ?1")
      .bind(view.action_id)
      .first();
    expect(audit).toEqual({ confirmed_via: "form_elicitation", user_id: "u-boss" });
  });

  it("cancels on decline and writes nothing", async () => {
    const before = await zhangSanPieces();
    const { client } = await askingClient(keys.boss, () => ({ action: "decline" }));
    const result = await client.callTool({ name: "prepare_piece_record", arguments: PIECES });
    const view = result.structuredContent as { action_id: string; status: string };
    expect(view.status).toBe("cancelled");
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^The user declined\. 已取消，什么都没有写入/);
    expect(await written(view.action_id)).toBe(0);
    expect(await zhangSanPieces()).toBe(before);
  });

  it("asks an open question as a choice, then shows the whole preview again before writing", async () => {
    const { client, asked } = await askingClient(keys.boss, (params) => ({
      action: "accept",
      content: params.requestedSchema?.properties.order ? { order: "o-jx-4" } : ({} as Record<string, string>),
    }));
    const result = await client.callTool({
      name: "prepare_piece_record",
      arguments: { employee: "李娟", process: "拼接", quantity: 30 },
    });
    expect(asked).toHaveLength(2);
    const choices = asked[0]?.requestedSchema?.properties.order?.oneOf?.map((c) => c.const).sort();
    expect(choices).toEqual(["o-jx-2", "o-jx-4"]);
    expect(asked[0]?.message).toContain("还需要您选择");
    expect(Object.keys(asked[1]?.requestedSchema?.properties ?? {})).toEqual([]);
    expect(asked[1]?.message).toContain("订单：");
    const view = result.structuredContent as { action_id: string; status: string };
    expect(view.status).toBe("confirmed");
    const order = await dbOf("t-jinxiu")
      .prepare("SELECT order_id FROM piece_records WHERE action_id = ?1")
      .bind(view.action_id)
      .first();
    expect(order).toEqual({ order_id: "o-jx-4" });
  });

  it("refuses a choice that was not offered, and writes nothing", async () => {
    const args = { employee: "李娟", process: "拼接", quantity: 30 };
    const { state, actionId } = await firstRound(keys.boss, args);
    const result = await rawCall(keys.boss, {
      name: "prepare_piece_record",
      arguments: args,
      inputResponses: { confirm: { action: "accept", content: { order: "o-hm-1" } } },
      requestState: state,
    });
    expect(errorText(result)).toMatch(/^invalid_input: The answer must choose one of the offered order candidates/);
    expect(await written(actionId)).toBe(0);
  });

  it("writes once when twenty retries carry the same accepted state, and refuses a replay", async () => {
    const { state, actionId } = await firstRound();
    const answers = await Promise.all(Array.from({ length: 20 }, () => answer(keys.boss, state)));
    expect(answers.filter((a) => !a.isError)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.isError)) {
      expect(errorText(refused)).toMatch(/^action_not_confirmable: This (answer|confirmation) was already/);
    }
    expect(await written(actionId)).toBe(1);
    const replay = await answer(keys.boss, state);
    expect(errorText(replay)).toBe("action_not_confirmable: This confirmation was already answered: the action is confirmed.");
    expect(await written(actionId)).toBe(1);
  });

  it("refuses a tampered, foreign, expired or re-aimed state, writing nothing", async () => {
    const { state, actionId } = await firstRound();
    const [version, body, mac] = state.split(".") as [string, string, string];
    const tampered = `${version}.${body}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    expect(errorText(await answer(keys.boss, tampered))).toMatch(
      /^request_state_invalid: This confirmation answer cannot be used: it is not one Weft issued\. Nothing was written/,
    );
    // Another person of another workshop, and of the same workshop, replaying the boss's answer.
    expect(errorText(await answer(keys.otherBoss, state))).toMatch(/^request_state_invalid: .*it belongs to another call/);
    expect(errorText(await answer(keys.admin, state))).toMatch(/^request_state_invalid: .*it belongs to another call/);
    // The same state for other arguments: 500 pieces instead of the 50 the person saw.
    expect(errorText(await answer(keys.boss, state, { ...PIECES, quantity: 500 }))).toMatch(/belongs to another call/);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    expect(errorText(await answer(keys.boss, state))).toMatch(/^request_state_invalid: .*it expired/);
    vi.useRealTimers();
    expect(await written(actionId)).toBe(0);
  });

  it("says an answer that comes after the action expired came too late, and writes nothing", async () => {
    const start = Date.now();
    const { state, actionId } = await firstRound();
    // Retried without an answer nine minutes on, the call asks again with a fresh state.
    vi.useFakeTimers({ toFake: ["Date"], now: start + 9 * 60_000 });
    const again = await rawCall(keys.boss, { name: "prepare_piece_record", arguments: PIECES, requestState: state });
    expect(again.resultType).toBe("input_required");
    vi.setSystemTime(start + 11 * 60_000);
    expect(errorText(await answer(keys.boss, again.requestState ?? ""))).toMatch(
      /^action_expired: This confirmation came too late/,
    );
    vi.useRealTimers();
    expect(await written(actionId)).toBe(0);
  });

  it("sends a client that only opens URLs to the confirm page, and reports what the person did there", async () => {
    const { client, asked } = await askingClient(keys.staff, () => ({ action: "accept" }), { url: {} });
    const pending = await client.callTool({ name: "prepare_piece_record", arguments: { process: "上袖子", quantity: 20 } });
    expect(asked[0]?.mode).toBe("url");
    const link = asked[0]?.url ?? "";
    expect(link).toMatch(/^http:\/\/weft\.test\/actions\/[0-9a-f]{64}\?via=url_elicitation$/);
    // Accepting only opened the page: nothing is written until the person confirms there.
    const structured = pending.structuredContent as { status: string; action_id: string };
    expect(structured).toMatchObject({ status: "pending", confirm_url: link.replace("?via=url_elicitation", "") });
    expect(await written(structured.action_id)).toBe(0);
    const cookie = await signIn(logins.staff.username, logins.staff.password);
    // The page opened by the elicitation says so when the person confirms there.
    const page = await browserCall(`/api/actions/${structured.action_id}/confirm`, cookie, {
      method: "POST",
      body: JSON.stringify({ via: "url_elicitation", lang: "zh" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(page.status).toBe(200);
    expect(await written(structured.action_id)).toBe(1);
    const audit = await dbOf("t-jinxiu")
      .prepare("SELECT confirmed_via, credential FROM business_audit WHERE action_id = ?1")
      .bind(structured.action_id)
      .first();
    expect(audit).toEqual({ confirmed_via: "url_elicitation", credential: null });
  });

  it("tells a URL client's retry what the person did on the page", async () => {
    const args = { process: "上袖子", quantity: 20 };
    const first = await rawCall(keys.staff, { name: "prepare_piece_record", arguments: args }, { url: {} });
    const link = first.inputRequests?.confirm?.params.url ?? "";
    const actionId = new URL(link).pathname.split("/").pop() ?? "";
    const cookie = await signIn(logins.staff.username, logins.staff.password);
    await browserCall(`/api/actions/${actionId}/confirm`, cookie, {
      method: "POST",
      body: JSON.stringify({ via: "confirm_page" }),
      headers: { "Content-Type": "application/json" },
    });
    const retry = await rawCall(
      keys.staff,
      {
        name: "prepare_piece_record",
        arguments: args,
        inputResponses: { confirm: { action: "accept" } },
        requestState: first.requestState,
      },
      { url: {} },
    );
    expect(retry.structuredContent).toMatchObject({ action_id: actionId, status: "confirmed" });
    expect(retry.content?.[0]?.text).toMatch(/^已确认并写入：计件登记：李娟/);
    expect(await written(actionId)).toBe(1);
  });

  it("gives 2025-era clients the confirm link, whatever they declared, since they cannot be asked", async () => {
    const client = await mcpClient(keys.boss);
    const result = await client.callTool({ name: "prepare_piece_record", arguments: PIECES });
    expect(result.structuredContent).toMatchObject({ status: "pending" });
    const modern = await rawCall(keys.boss, { name: "list_knowledge_bases", arguments: {} });
    expect(modern.resultType ?? "complete").toBe("complete");
  });
});
