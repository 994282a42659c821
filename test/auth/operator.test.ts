import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/demo-data.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { keys } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";

const OPERATOR = DEMO.operators[0].key;

describe("the deployment's operator", () => {
  it("lists the workshops with how many people each has, newest first, paged", async () => {
    const first = await callJson("/api/admin/workshops?limit=1", { key: OPERATOR });
    expect(first.status).toBe(200);
    expect(first.body.workshops).toHaveLength(1);
    const second = await callJson(`/api/admin/workshops?limit=5&cursor=${first.body.next_cursor}`, { key: OPERATOR });
    const all = [...first.body.workshops, ...second.body.workshops];
    expect(all.find((w) => w.id === "t-jinxiu")).toMatchObject({ name: "锦绣制衣", people: 4, active_people: 4 });
    expect(all.find((w) => w.id === "t-other")).toMatchObject({ name: "华美服饰", people: 1 });
    expect(Object.keys(all[0]).sort()).toEqual(["active_people", "created_at", "id", "name", "people"]);
  });

  it("creates one-time invite codes shown once, lists them without the code, and revokes them", async () => {
    const created = await callJson("/api/admin/invites", { key: OPERATOR, method: "POST", body: JSON.stringify({ days: 2 }) });
    expect(created.status).toBe(201);
    expect(created.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect(created.body.sign_up_url).toBe(`http://weft.test/sign-up#invite=${created.body.code}`);
    const days = (Date.parse(created.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.99);
    const listed = await callJson("/api/admin/invites", { key: OPERATOR });
    expect(listed.text).not.toContain(created.body.code);
    const revoked = await callJson(`/api/admin/invites/${created.body.id}`, { key: OPERATOR, method: "DELETE" });
    expect(revoked.body.revoked_at).not.toBeNull();
    expect((await callJson("/api/admin/invites/nope", { key: OPERATOR, method: "DELETE" })).status).toBe(404);
    expect(
      (await callJson("/api/admin/invites", { key: OPERATOR, method: "POST", body: JSON.stringify({ days: 31 }) })).status,
    ).toBe(400);
  });

  it("is refused with any workshop's key, and an operator key is refused everywhere else", async () => {
    for (const key of [keys.admin, keys.boss, keys.otherBoss]) {
      expect((await call("/api/admin/workshops", { key })).status).toBe(401);
      expect((await call("/api/admin/invites", { key, method: "POST", body: "{}" })).status).toBe(401);
    }
    expect((await call("/api/admin/workshops")).status).toBe(401);
    for (const path of ["/api/people", "/api/keys", "/api/knowledge-bases", "/api/auth/me", "/api/audit"]) {
      expect((await call(path, { key: OPERATOR })).status, path).toBe(401);
    }
    const mcp = await call("/mcp", {
      key: OPERATOR,
      method: "POST",
      headers: { Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
  });

  it("stops at once when its key is revoked", async () => {
    await env.DB.prepare("INSERT INTO operator_keys (id, name, prefix, key_hash) VALUES ('op-x', 'x', 'wop_', ?1)")
      .bind(await sha256Hex("wop_revoke-me"))
      .run();
    expect((await call("/api/admin/workshops", { key: "wop_revoke-me" })).status).toBe(200);
    await env.DB.prepare("UPDATE operator_keys SET revoked_at = 'now' WHERE id = 'op-x'").run();
    expect((await call("/api/admin/workshops", { key: "wop_revoke-me" })).status).toBe(401);
  });
});
