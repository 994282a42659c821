import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { holdAction } from "../../src/actions/actions.ts";
import { configFor } from "../../src/config.ts";
import { servicesFor } from "../../src/services.ts";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { dbOf, keys, logins, users, workshopOf } from "../fixtures.ts";
import { callJson, mcpClient } from "../helpers.ts";

// A person's yes before any write: over MCP and REST, an agent confirms only with a key whose owner
// allowed it; everyone else is given the confirm page, where a signed-in person says yes.

// A boss records for 张三; staff (李娟, and any key of hers) record only their own pieces.
const BOSS_PIECES = { employee: "张三", process: "领子", quantity: 50 };
const OWN_PIECES = { process: "上袖子", quantity: 20 };

async function prepareOverMcp(key: string) {
  const client = await mcpClient(key);
  const result = await client.callTool({ name: "prepare_piece_record", arguments: key === keys.boss ? BOSS_PIECES : OWN_PIECES });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  const structured = result.structuredContent as { action_id: string; confirm_url: string };
  return { client, ...structured };
}

async function piecesWritten(actionId: string): Promise<number> {
  const row = await dbOf("t-jinxiu")
    .prepare("SELECT COUNT(*) AS n FROM piece_records WHERE action_id = ?1")
    .bind(actionId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function auditOf(actionId: string) {
  return dbOf("t-jinxiu")
    .prepare("SELECT confirmed_via, confirmed_key FROM business_audit WHERE action_id = ?1")
    .bind(actionId)
    .first<{ confirmed_via: string; confirmed_key: string | null }>();
}

describe("who may say yes to a prepared write", () => {
  it("gives every prepared write the confirm page's link, and says what the key allows and what to tell the person", async () => {
    const agent = await prepareOverMcp(keys.boss);
    expect(agent.confirm_url).toBe(`http://weft.test/actions/${agent.action_id}`);
    const again = await agent.client.callTool({ name: "prepare_piece_record", arguments: BOSS_PIECES });
    expect(again.structuredContent).toMatchObject({
      confirm_by: "agent",
      tell_user: expect.stringContaining("说“确认”我就写入"),
    });
    const person = await prepareOverMcp(keys.staff);
    const result = await person.client.callTool({ name: "prepare_piece_record", arguments: OWN_PIECES });
    const pending = result.structuredContent as { confirm_by: string; confirm_url: string; tell_user: string };
    expect(pending.confirm_by).toBe("weft");
    // A client that reads only the text gets the link the person confirms at, too.
    const text = (result.content as { type: string; text: string }[]).map((b) => b.text).join("\n");
    expect(text).toContain(`请打开 ${pending.confirm_url} 核对后点“确认”`);
    expect(text).toContain("confirm_action will not work");
  });

  it("refuses confirm_action over MCP with a key that may not confirm, giving the link, and writes nothing", async () => {
    const { client, action_id, confirm_url } = await prepareOverMcp(keys.staff);
    const result = await client.callTool({ name: "confirm_action", arguments: { action_id } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(text).toMatch(/^confirmation_required: /);
    expect(text).toContain(confirm_url);
    expect(result._meta?.["weft/error"]).toMatchObject({ code: "confirmation_required", status: 403 });
    expect(await piecesWritten(action_id)).toBe(0);
  });

  it("lets a key whose owner allowed it confirm over MCP, and the audit names the key", async () => {
    const { client, action_id } = await prepareOverMcp(keys.boss);
    const result = await client.callTool({ name: "confirm_action", arguments: { action_id } });
    expect(result.isError).toBeFalsy();
    expect(await piecesWritten(action_id)).toBe(1);
    expect(await auditOf(action_id)).toEqual({ confirmed_via: "agent_key", confirmed_key: "dev-" });
  });

  it("holds REST to the same rule: a key that may not confirm gets 403 with the link, a signed-in person confirms", async () => {
    const { action_id, confirm_url } = await prepareOverMcp(keys.staff);
    const refused = await callJson(`/api/actions/${action_id}/confirm`, { method: "POST", key: keys.staff });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "confirmation_required", details: { confirm_url } });
    expect(await piecesWritten(action_id)).toBe(0);
    const cookie = await signIn(logins.staff.username, logins.staff.password);
    const page = await browserCall(`/api/actions/${action_id}/confirm`, cookie, {
      method: "POST",
      body: JSON.stringify({ via: "confirm_page" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ status: "confirmed" });
    expect(await piecesWritten(action_id)).toBe(1);
    expect(await auditOf(action_id)).toEqual({ confirmed_via: "confirm_page", confirmed_key: null });
  });

  it("records a chat card's click as the card, and refuses a made-up path", async () => {
    const { action_id } = await prepareOverMcp(keys.staff);
    const cookie = await signIn(logins.staff.username, logins.staff.password);
    const made_up = await browserCall(`/api/actions/${action_id}/confirm`, cookie, {
      method: "POST",
      body: JSON.stringify({ via: "agent_key" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(made_up.status).toBe(400);
    expect(await piecesWritten(action_id)).toBe(0);
    const card = await browserCall(`/api/actions/${action_id}/confirm`, cookie, { method: "POST" });
    expect(card.status).toBe(200);
    expect(await auditOf(action_id)).toEqual({ confirmed_via: "card", confirmed_key: null });
  });

  it("shows who says yes to each key's writes, weft for a new key, and agent_confirm derived from it for one release", async () => {
    const created = await callJson("/api/keys", { method: "POST", key: keys.staff, body: JSON.stringify({ name: "agent" }) });
    expect(created.body).toMatchObject({ confirm_by: "weft", agent_confirm: false });
    const listed = await callJson("/api/keys", { key: keys.boss });
    const own = (listed.body.keys as { user_id: string; confirm_by: string; agent_confirm: boolean }[]).filter(
      (k) => k.user_id === "u-boss",
    );
    expect(own.map((k) => [k.confirm_by, k.agent_confirm])).toEqual([["agent", true]]);
  });

  it("lets only a signed-in person choose it: the key's owner, or their workshop's admin, never with a key", async () => {
    const created = await callJson("/api/keys", { method: "POST", key: keys.staff, body: JSON.stringify({ name: "agent" }) });
    const id = created.body.id as string;
    const agentKey = created.body.key as string;
    const allow = JSON.stringify({ confirm_by: "agent" });
    const headers = { "Content-Type": "application/json" };
    // The key (or any key, an admin's too) cannot set it, for itself or another.
    for (const key of [agentKey, keys.staff, keys.admin]) {
      const refused = await callJson(`/api/keys/${id}`, { method: "PATCH", key, body: allow });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain("signed in");
    }
    // Another staff member, or a boss (who lists only their own keys), does not even see it.
    const staff2 = await signIn(logins.staff2.username, logins.staff2.password);
    expect((await browserCall(`/api/keys/${id}`, staff2, { method: "PATCH", body: allow, headers })).status).toBe(404);
    const boss = await signIn(logins.boss.username, logins.boss.password);
    expect((await browserCall(`/api/keys/${id}`, boss, { method: "PATCH", body: allow, headers })).status).toBe(404);
    // Another workshop's boss does not see it.
    const other = await signIn(logins.otherBoss.username, logins.otherBoss.password);
    expect((await browserCall(`/api/keys/${id}`, other, { method: "PATCH", body: allow, headers })).status).toBe(404);
    // The owner may; then the key confirms at once.
    const owner = await signIn(logins.staff.username, logins.staff.password);
    const allowed = await browserCall(`/api/keys/${id}`, owner, { method: "PATCH", body: allow, headers });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ id, confirm_by: "agent", agent_confirm: true });
    const { client, action_id } = await prepareOverMcp(agentKey);
    expect((await client.callTool({ name: "confirm_action", arguments: { action_id } })).isError).toBeFalsy();
    expect(await piecesWritten(action_id)).toBe(1);
    // Their workshop's admin may set it back, and the key's next confirm is refused.
    const admin = await signIn(logins.admin.username, logins.admin.password);
    const off = await browserCall(`/api/keys/${id}`, admin, {
      method: "PATCH",
      body: JSON.stringify({ confirm_by: "weft" }),
      headers,
    });
    expect(await off.json()).toMatchObject({ confirm_by: "weft", agent_confirm: false });
    const again = await prepareOverMcp(agentKey);
    const refused = await again.client.callTool({ name: "confirm_action", arguments: { action_id: again.action_id } });
    expect(refused.isError).toBe(true);
    expect(await piecesWritten(again.action_id)).toBe(0);
  });

  it("refuses a malformed key change as a client's mistake", async () => {
    const owner = await signIn(logins.staff.username, logins.staff.password);
    const headers = { "Content-Type": "application/json" };
    for (const body of [
      '{"confirm_by":"person"}',
      '{"confirm_by":"agent","role":"admin"}',
      '{"agent_confirm":true}',
      "{}",
      "{bad",
    ]) {
      const res = await browserCall("/api/keys/k-u-staff", owner, { method: "PATCH", body, headers });
      expect(res.status, body).toBe(400);
    }
  });
});

describe("the confirm page's address", () => {
  it("is the configured PUBLIC_URL's where one is set, whatever host the request came in by", async () => {
    const config = configFor(env);
    const prepared = { kind: "order", write: null, summary: "s", preview: [], ambiguities: [], needs: "boss" as const };
    const local = servicesFor(env, config, workshopOf(users.boss.tenantId), { origin: "http://localhost:8787" }).actions;
    const atLocal = await holdAction({ actions: local, user: users.boss, prepared });
    expect(atLocal.confirm_url).toBe(`http://localhost:8787/actions/${atLocal.action_id}`);
    const deployed = servicesFor(env, { ...config, publicUrl: "https://weft.example" }, workshopOf(users.boss.tenantId), {
      origin: "http://other.host",
    }).actions;
    const atDeployed = await holdAction({ actions: deployed, user: users.boss, prepared });
    expect(atDeployed.confirm_url).toBe(`https://weft.example/actions/${atDeployed.action_id}`);
  });
});
