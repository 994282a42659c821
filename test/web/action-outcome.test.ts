import { describe, expect, it } from "vitest";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { toolWordsView } from "../../src/tools/tool-words.ts";
import { outcomeOfAnswer, outcomeOfError, RESULT_MAX_LENGTH } from "../../src/web/action-outcome.ts";
import { ApiError, errorOf } from "../../src/web/api-error.ts";
import { OUTCOME_TEXT_EN, OUTCOME_TEXT_ZH } from "../../src/web/outcome-text.ts";
import { resultLabels } from "../../src/web/result-labels.ts";

// The labels a written record is shown with are the prepare tools' own words, as the browser reads them.
const words = new Map(WEFT_TOOLS.map((tool) => [tool.name, toolWordsView(tool)]));
const zh = { ...OUTCOME_TEXT_ZH, labels: resultLabels(words, "zh") };
const en = { ...OUTCOME_TEXT_EN, labels: resultLabels(words, "en") };

const refusal = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
  errorOf(status, { error: { code, message, ...(details ? { details } : {}) } }, null);

describe("a confirm card's outcome from the actions route's answer", () => {
  it("takes the status and shows what was written, without internal ids", () => {
    const outcome = outcomeOfAnswer(
      { action_id: "a", status: "confirmed", result: { id: "pr-1", employee_id: "e-1", quantity: 731, work_date: "2026-11-26" } },
      "confirm",
      en,
    );
    expect(outcome).toEqual({ status: "confirmed", result: "quantity: 731, date: 2026-11-26" });
  });

  it("shows a written piece record or order in the UI's language, money in yuan, and no order status beside the badge", () => {
    const piece = {
      piece_record_id: "pr-1",
      employee: "张三",
      process: "上领子",
      order_no: "2026-001",
      quantity: 50,
      work_date: "2026-11-26",
      amount: { cents: 4000, yuan: "40.00" },
    };
    expect(outcomeOfAnswer({ status: "confirmed", result: piece }, "confirm", zh).result).toBe(
      "员工：张三，工序：上领子，订单号：2026-001，数量：50，日期：2026-11-26，金额（元）：40.00",
    );
    const order = {
      order_id: "o-1",
      order_no: "2026-006",
      customer: "海澜",
      quantity: 120,
      due_date: "2027-02-01",
      status: "pending",
    };
    expect(outcomeOfAnswer({ status: "confirmed", result: order }, "confirm", zh).result).toBe(
      "订单号：2026-006，客户：海澜，数量：120，交货日期：2027-02-01",
    );
  });

  it("shows an external tool's result under its own field names, when the UI has no labels for them", () => {
    const result = { ticket_id: "t-9", title: "换针", priority: 2, meta: { a: 1 } };
    expect(outcomeOfAnswer({ status: "confirmed", result }, "confirm", zh).result).toBe("title：换针，priority：2");
  });

  it("shows why a confirm failed for good, in Chinese for the Chinese UI and as the server says for the English one", () => {
    const body = { status: "failed", error: { code: "action_stale", message: "The unit price changed." } };
    expect(outcomeOfAnswer(body, "confirm", zh)).toEqual({
      status: "failed",
      result: "情况有变（例如单价、订单或员工已被修改），这次没有写入。请重新准备。",
    });
    expect(outcomeOfAnswer(body, "confirm", en).result).toBe("The unit price changed.");
  });

  it("cuts a long result to what a card shows, never inside a character", () => {
    const long = `${"结果".repeat(999)}😀${"x".repeat(3000)}`;
    const cut = outcomeOfAnswer({ status: "confirmed", result: long }, "confirm", en);
    expect(cut.result).toHaveLength(RESULT_MAX_LENGTH - 1);
    expect(cut.result?.endsWith("结果…")).toBe(true);
    const refused = outcomeOfError(refusal(409, "upstream_refused", "y".repeat(5000)), en);
    expect(refused.result).toHaveLength(RESULT_MAX_LENGTH);
    expect(outcomeOfAnswer({ status: "confirmed", result: "z".repeat(2000) }, "confirm", en).result).toBe("z".repeat(2000));
  });

  it("falls back on the decision when the answer has no known status", () => {
    expect(outcomeOfAnswer({ status: "__proto__" }, "cancel", zh).status).toBe("cancelled");
  });
});

describe("a confirm card's outcome from a refused or failed request", () => {
  it("marks an expired action as expired", () => {
    expect(outcomeOfError(refusal(410, "action_expired", "This action expired."), zh)).toEqual({
      status: "expired",
      result: "已过期，没有写入。请重新准备。",
    });
    expect(outcomeOfError(refusal(410, "action_expired", "This action expired."), en).result).toBe("This action expired.");
  });

  it("takes where the action really stands from the refusal's details", () => {
    const error = refusal(409, "action_not_confirmable", "This action was cancelled.", { action: { status: "cancelled" } });
    expect(outcomeOfError(error, en)).toEqual({ status: "cancelled", result: "This action was cancelled." });
    expect(outcomeOfError(error, zh)).toEqual({ status: "cancelled", result: "这项操作已经取消了。" });
  });

  it("marks other refusals as failed", () => {
    expect(outcomeOfError(refusal(404, "action_unknown", "No such action"), zh).status).toBe("failed");
    // A code the UI has no words for keeps the server's message.
    expect(outcomeOfError(refusal(409, "conflict", "Something moved"), zh).result).toBe("Something moved");
  });

  it("leaves the card pending when nothing was decided: a server error, a rate limit or no network", () => {
    expect(outcomeOfError(refusal(503, "unavailable", "Saving failed"), zh)).toEqual({
      status: "pending",
      result: "保存失败，什么都没写入。请再试一次。",
    });
    expect(outcomeOfError(refusal(429, "rate_limited", "Slow down"), en)).toEqual({ status: "pending", result: "Slow down" });
    // No network: no server message; the card says to try again in the UI's language.
    expect(outcomeOfError(new TypeError("Failed to fetch"), zh)).toEqual({ status: "pending" });
  });

  it("passes a lapsed session on, for the sign-in screen", () => {
    expect(() => outcomeOfError(refusal(401, "unauthorized", "Sign in"), zh)).toThrow(ApiError);
  });

  it("reads an error body that is not Weft's", () => {
    const error = errorOf(502, "<html>Bad gateway</html>", "30");
    expect([error.code, error.message, error.retryAfterSeconds]).toEqual(["http_502", "HTTP 502", 30]);
  });
});
