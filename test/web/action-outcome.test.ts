import { describe, expect, it } from "vitest";
import { outcomeOfAnswer, outcomeOfError } from "../../src/web/action-outcome.ts";
import { ApiError, errorOf } from "../../src/web/api-error.ts";

const refusal = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
  errorOf(status, { error: { code, message, ...(details ? { details } : {}) } }, null);

describe("a confirm card's outcome from the actions route's answer", () => {
  it("takes the status and shows what was written, without internal ids", () => {
    const outcome = outcomeOfAnswer(
      { action_id: "a", status: "confirmed", result: { id: "pr-1", employee_id: "e-1", quantity: 731, work_date: "2026-11-26" } },
      "confirm",
    );
    expect(outcome).toEqual({ status: "confirmed", result: "quantity: 731, work_date: 2026-11-26" });
  });

  it("shows why a confirm failed for good", () => {
    expect(outcomeOfAnswer({ status: "failed", error: { code: "action_stale", message: "单价已变" } }, "confirm")).toEqual({
      status: "failed",
      result: "单价已变",
    });
  });

  it("falls back on the decision when the answer has no known status", () => {
    expect(outcomeOfAnswer({ status: "__proto__" }, "cancel").status).toBe("cancelled");
  });
});

describe("a confirm card's outcome from a refused or failed request", () => {
  it("marks an expired action as expired", () => {
    expect(outcomeOfError(refusal(410, "action_expired", "已过期"))).toEqual({ status: "expired", result: "已过期" });
  });

  it("takes where the action really stands from the refusal's details", () => {
    const error = refusal(409, "action_not_confirmable", "This action was cancelled.", { action: { status: "cancelled" } });
    expect(outcomeOfError(error)).toEqual({ status: "cancelled", result: "This action was cancelled." });
  });

  it("marks other refusals as failed", () => {
    expect(outcomeOfError(refusal(404, "action_unknown", "No such action")).status).toBe("failed");
  });

  it("leaves the card pending when nothing was decided: a server error, a rate limit or no network", () => {
    expect(outcomeOfError(refusal(503, "unavailable", "Saving failed")).status).toBe("pending");
    expect(outcomeOfError(refusal(429, "rate_limited", "Slow down")).status).toBe("pending");
    expect(outcomeOfError(new TypeError("Failed to fetch"))).toEqual({ status: "pending", result: "Failed to fetch" });
  });

  it("passes a lapsed session on, for the sign-in screen", () => {
    expect(() => outcomeOfError(refusal(401, "unauthorized", "Sign in"))).toThrow(ApiError);
  });

  it("reads an error body that is not Weft's", () => {
    const error = errorOf(502, "<html>Bad gateway</html>", "30");
    expect([error.code, error.message, error.retryAfterSeconds]).toEqual(["http_502", "HTTP 502", 30]);
  });
});
