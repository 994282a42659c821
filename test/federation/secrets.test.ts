import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { openHeaders, sealHeaders } from "../../src/federation/secrets.ts";

const secret = "a-test-key-of-some-length";

describe("sealed header secrets", () => {
  it("open with the same key and binding, and carry no plain text", async () => {
    const sealed = await sealHeaders({ secret, headers: { Authorization: "Bearer abc123" }, binding: "t-1/s-1" });
    expect(sealed).not.toContain("abc123");
    expect(await openHeaders({ secret, sealed, binding: "t-1/s-1" })).toEqual({ Authorization: "Bearer abc123" });
  });

  it("do not open for another row or workshop, or with another key", async () => {
    const sealed = await sealHeaders({ secret, headers: { "X-Api-Key": "k" }, binding: "t-1/s-1" });
    for (const [key, binding] of [
      [secret, "t-2/s-1"],
      [secret, "t-1/s-2"],
      ["another-key", "t-1/s-1"],
    ] as const) {
      const error = await openHeaders({ secret: key, sealed, binding }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("unavailable");
    }
  });

  it("refuse to work without MCP_SECRETS_KEY rather than store headers in the clear", async () => {
    const error = await sealHeaders({ secret: undefined, headers: { a: "b" }, binding: "x" }).catch((e: unknown) => e);
    expect((error as AppError).message).toContain("MCP_SECRETS_KEY");
  });
});
