import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeState, fullAccount, madeForEachTest, runScript } from "./fake-account.ts";

const made = madeForEachTest();

const OLD = "an-existing-key-of-forty-four-characters-xx=";

/**
 * A deployment whose reseal steps walk DB then SHARD_1, answering `rotating` only once the fake
 * account's Worker has MCP_SECRETS_KEY_NEXT (as the real one does once the new version is live),
 * and recording which key was "next" at each step.
 */
async function deployment(state: FakeState = fullAccount()) {
  const w = await made.worker();
  const f = made.folder(state, { vars: { ALLOWED_HOSTS: "127.0.0.1", PUBLIC_URL: w.origin } });
  const steps: { cursor: string | null; next: string | undefined; rotating: boolean }[] = [];
  let passes = 0;
  w.reseal = (cursor) => {
    const next = f.read().worker?.secrets.MCP_SECRETS_KEY_NEXT;
    const rotating = next !== undefined;
    steps.push({ cursor, next, rotating });
    if (cursor === null) {
      if (rotating) passes += 1;
      return {
        database: "DB",
        resealed: 0,
        current: 0,
        unreadable: [],
        rotating,
        next_cursor: JSON.stringify({ database: "SHARD_1", after: null }),
      };
    }
    return {
      database: "SHARD_1",
      resealed: passes === 1 ? 3 : 0,
      current: passes === 1 ? 1 : 4,
      unreadable: passes === 1 ? [] : [{ tenant_id: "t-a", server_id: "mcp_lost", what: "headers" }],
      rotating,
      next_cursor: null,
    };
  };
  const keyFile = join(f.dir, "rotation-key");
  const run = (env: Record<string, string> = { WEFT_OPERATOR_KEY: "wop_operator" }) =>
    runScript("secrets-rotate.ts", ["--config", f.config, "--settle", "0", "--key-file", keyFile], f, env);
  return { w, f, steps, keyFile, run };
}

describe("npm run secrets:rotate", () => {
  it("sets the next key, reseals every database twice with it, makes it the key and drops the old one, never printing it", async () => {
    const { f, steps, keyFile, run } = await deployment();
    const result = await run();
    expect(result.status, result.output).toBe(0);
    const after = f.read();
    const key = after.worker?.secrets.MCP_SECRETS_KEY as string;
    expect(key).not.toBe(OLD);
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(after.worker?.secrets).not.toHaveProperty("MCP_SECRETS_KEY_NEXT");
    // The order that loses nothing: next set, every database resealed (twice) under it, then swapped.
    const secretCalls = after.calls.filter((c) => c[0] === "secret" && c[1] !== "list").map((c) => `${c[1]} ${c[2]}`);
    expect(secretCalls).toEqual(["put MCP_SECRETS_KEY_NEXT", "put MCP_SECRETS_KEY", "delete MCP_SECRETS_KEY_NEXT"]);
    expect(steps.map((s) => s.cursor === null)).toEqual([true, false, true, false]);
    expect(steps.every((s) => s.next === key && s.rotating)).toBe(true);
    expect(result.stdout).toContain("resealed 3, already on the new key 1");
    expect(result.stdout).toContain("unreadable with either key (set again by its workshop): t-a mcp_lost headers");
    expect(result.output).not.toContain(key);
    expect(existsSync(keyFile)).toBe(false);
  });

  it("goes on with the same key after an interruption", async () => {
    const state = fullAccount();
    const begun = "Bx1Hy4Iz7Ja0Kb3Lc6Md9Ne2Of5Pg8Qh1Ri4Sj7Tk0=";
    (state.worker as { secrets: Record<string, string> }).secrets.MCP_SECRETS_KEY_NEXT = begun;
    const { f, keyFile, run } = await deployment(state);
    writeFileSync(keyFile, begun);
    const result = await run();
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toContain("Going on with the rotation begun before");
    expect(f.read().worker?.secrets).toEqual({ MCP_SECRETS_KEY: begun });
  });

  it("refuses to go on with a rotation whose key it does not have, changing nothing", async () => {
    const state = fullAccount();
    (state.worker as { secrets: Record<string, string> }).secrets.MCP_SECRETS_KEY_NEXT = "x".repeat(44);
    const { f, run } = await deployment(state);
    const result = await run();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("A rotation was begun elsewhere");
    expect(f.read().worker?.secrets.MCP_SECRETS_KEY).toBe(OLD);
    expect(f.read().calls.filter((c) => c[0] === "secret" && c[1] !== "list")).toEqual([]);
  });

  it("asks for the operator key before touching anything", async () => {
    const { f, run } = await deployment();
    const result = await run({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Set WEFT_OPERATOR_KEY");
    expect(f.read().calls).toEqual([]);
    expect(readFileSync(f.config, "utf8")).toContain("PUBLIC_URL");
  });
});
