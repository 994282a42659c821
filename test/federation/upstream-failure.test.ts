import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { asUpstreamFailure } from "../../src/federation/mcp-connection.ts";

/** What the SSE transport's EventSource says of a 200 that is not an event stream. */
const INVALID_TYPE = 'Invalid content type, expected "text/event-stream"';
const detailsOf = (error: AppError) => error.details as { status_code?: number } | undefined;

describe("what a failed contact with an external server is reported as", () => {
  it("reads the HTTP status from the transport's own error", () => {
    const failure = asUpstreamFailure(new StreamableHTTPError(503, "busy"), {
      host: "tools.example.com",
      totalMs: 5000,
      elapsedMs: 40,
    });
    expect(failure.message).toBe("tools.example.com answered HTTP 503.");
    expect(failure.retryable).toBe(true);
    const refused = asUpstreamFailure(new StreamableHTTPError(403, "no"), {
      host: "tools.example.com",
      totalMs: 5000,
      elapsedMs: 40,
    });
    expect(refused.retryable).toBe(false);
    expect(detailsOf(refused)?.status_code).toBe(403);
  });

  it("does not take another error's numeric code for an HTTP status", () => {
    // workerd throws such errors (a DOMException's code 22, for one) when the Worker itself hits a limit.
    const failure = asUpstreamFailure(new DOMException("Too many timers", "QuotaExceededError"), {
      host: "tools.example.com",
      totalMs: 5000,
      elapsedMs: 40,
    });
    expect(failure).toBeInstanceOf(AppError);
    expect(failure.message).not.toContain("HTTP");
    expect(detailsOf(failure)?.status_code ?? null).toBeNull();
  });

  it("does not report a web page's answer (the transports' -1 or 200) as a failing HTTP status", () => {
    for (const error of [
      new StreamableHTTPError(-1, "Unexpected content type: text/html"),
      new SseError(200, INVALID_TYPE, Object.assign(new Event("error"), { code: 200, message: INVALID_TYPE })),
    ]) {
      const failure = asUpstreamFailure(error, { host: "tools.example.com", totalMs: 5000, elapsedMs: 40 });
      expect(failure.message).toBe("tools.example.com did not answer as an MCP server (neither JSON nor an event stream).");
      expect(detailsOf(failure)?.status_code ?? null).toBeNull();
      expect(failure.retryable).toBe(false);
    }
  });

  it("does not say a server answered when the SSE transport never had an answer (no status)", () => {
    // The EventSource keeps only the message of what its fetch threw (here, the guarded fetch's).
    const unreachable = "down.example.com could not be reached.";
    const error = new SseError(undefined, unreachable, Object.assign(new Event("error"), { message: unreachable }));
    const failure = asUpstreamFailure(error, { host: "down.example.com", totalMs: 5000, elapsedMs: 40 });
    expect(failure.message).not.toContain("answered");
    expect(detailsOf(failure)?.status_code ?? null).toBeNull();
    expect(failure.retryable).toBe(true);
  });
});

describe("a JSON-RPC error the server answered", () => {
  const budget = { host: "tools.example.com", totalMs: 20_000 };

  it("is reported with its code, not as a timeout, even when the code is the SDK's timeout code", () => {
    const quota = new McpError(-32001, "Daily quota exceeded");
    const failure = asUpstreamFailure(quota, { ...budget, elapsedMs: 78 });
    expect(failure.message).toBe("tools.example.com answered with JSON-RPC error -32001: Daily quota exceeded");
    expect(failure.retryable).toBe(false);
    expect(failure.details).toMatchObject({ is_upstream: true, rpc_code: -32001, retryable: false });
  });

  it("is retryable only when it is the server's internal error", () => {
    const internal = asUpstreamFailure(new McpError(ErrorCode.InternalError, "boom"), { ...budget, elapsedMs: 50 });
    expect(internal.retryable).toBe(true);
    const invalid = asUpstreamFailure(new McpError(ErrorCode.InvalidParams, "no such tool"), { ...budget, elapsedMs: 50 });
    expect(invalid.retryable).toBe(false);
  });

  it("leaves the SDK's own timeout, once the budget is spent, reported as one", () => {
    const timeout = new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: 20_000 });
    const failure = asUpstreamFailure(timeout, { ...budget, elapsedMs: 20_003 });
    expect(failure.message).toBe("tools.example.com did not answer within 20000 ms.");
    expect(failure.retryable).toBe(true);
  });
});
