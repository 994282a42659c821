import { describe, expect, it } from "vitest";
import { changesOf } from "../../src/web/server-changes.ts";
import { readSignInReturn, signInReturnText } from "../../src/web/sign-in-return.ts";

const server = { url: "https://a.example.com/mcp", header_names: ["X-Api-Key", "X-Team"], expose_on_mcp: false };
const stored = (name: string, value = "") => ({ name, value, stored: true });

describe("an edit of a server in settings", () => {
  it("sends nothing for a form left as it was", () => {
    expect(changesOf(server, { url: server.url, headers: [stored("X-Api-Key"), stored("X-Team")], expose: false })).toEqual({});
  });

  it("keeps blank stored values (null), sends typed ones and drops removed rows", () => {
    const headers = [stored("X-Api-Key", "new-secret"), { name: " X-New ", value: "v" }, { name: "", value: "" }];
    expect(changesOf(server, { url: server.url, headers, expose: false })).toEqual({
      headers: { "X-Api-Key": "new-secret", "X-New": "v" },
    });
    expect(changesOf(server, { url: server.url, headers: [stored("X-Team")], expose: true })).toEqual({
      headers: { "X-Team": null },
      expose_on_mcp: true,
    });
  });

  it("removes every header when no row is left, and sends a new URL", () => {
    expect(changesOf(server, { url: "https://b.example.com/mcp", headers: [], expose: false })).toEqual({
      url: "https://b.example.com/mcp",
      headers: null,
    });
  });
});

describe("the settings page's address after an OAuth sign-in", () => {
  it("reads a known outcome and a plain server id", () => {
    expect(readSignInReturn("?mcp_sign_in=ok&server=mcp_abc123")).toEqual({ outcome: "ok", serverId: "mcp_abc123" });
    expect(readSignInReturn("?mcp_sign_in=expired")).toEqual({ outcome: "expired", serverId: null });
    expect(readSignInReturn("?mcp_sign_in=not_allowed")).toEqual({ outcome: "not_allowed", serverId: null });
  });

  it("ignores anything else: no outcome, an unknown one, an odd server id", () => {
    expect(readSignInReturn("")).toBeNull();
    expect(readSignInReturn("?mcp_sign_in=Your+account+is+locked")).toBeNull();
    expect(readSignInReturn("?mcp_sign_in=ok&server=<img>")).toEqual({ outcome: "ok", serverId: null });
  });
});

describe("what the page says after an OAuth sign-in", () => {
  const texts = {
    signInReturn: {
      ok: (name?: string) => `ok ${name ?? "-"}`,
      denied: "denied",
      expired: "expired",
      failed: "failed",
      not_allowed: "sign in as a boss",
    },
    signInReturnNotYours: "only a boss can finish it",
  };
  const told = (search: string, staff?: boolean) => {
    const outcome = readSignInReturn(search);
    if (!outcome) throw new Error(`no outcome in ${search}`);
    return signInReturnText(texts, outcome, { staff });
  };

  it("tells staff who can finish a refused sign-in, instead of asking them to sign in as a boss", () => {
    expect(told("?mcp_sign_in=not_allowed", true)).toBe("only a boss can finish it");
    expect(told("?mcp_sign_in=not_allowed")).toBe("sign in as a boss");
  });

  it("tells anyone else the outcome as it is", () => {
    expect(told("?mcp_sign_in=expired", true)).toBe("expired");
    expect(told("?mcp_sign_in=denied")).toBe("denied");
    expect(told("?mcp_sign_in=ok&server=mcp_1")).toBe("ok -");
  });
});
