import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { scrubError } from "../../src/federation/redact.ts";

describe("scrubbing a secret out of an error", () => {
  it("removes the secret and keeps the code, details and whether to try again", () => {
    const secret = "sk-live-abcdef123456";
    const upstream = new AppError("upstream_failed", `The server refused the key ${secret}.`, {
      details: { server: "tools" },
      retryable: false,
    });
    const scrubbed = scrubError(upstream, [secret]) as AppError;
    expect(scrubbed.message).not.toContain(secret);
    expect(scrubbed).toMatchObject({ code: "upstream_failed", details: { server: "tools" }, retryable: false });
  });
});
