import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cardText } from "../../src/preview-text.ts";
import { sha256Hex } from "../../src/sha256.ts";
import type { PendingAction } from "../../src/shapes.ts";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { keys, logins } from "../fixtures.ts";
import { callJson, mcpClient } from "../helpers.ts";
import { firstRound, written } from "../mcp/elicitation-rounds.ts";

// Every approval records who, how, with which credential, the exact preview text shown and its
// digest, and what was executed; the audit is append-only; a confirm checks its person again;
// and a fault mid-confirm leaves the action confirmable, never written twice or in part.

const FOR_ZHANG = { employee: "张三", process: "领子", quantity: 12, order: "o-jx-1" };
const json = { "Content-Type": "application/json" };

async function prepareAs(key: string, args: Record<string, unknown> = FOR_ZHANG): Promise<PendingAction> {
  const client = await mcpClient(key);
  const result = await client.callTool({ name: "prepare_piece_record", arguments: args });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as unknown as PendingAction;
}

async function auditIdOf(actionId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT id FROM business_audit WHERE action_id = ?1").bind(actionId).first<{ id: string }>();
  if (!row) throw new Error(`no audit entry for ${actionId}`);
  return row.id;
}

describe("what an approval records", () => {
  it("keeps the preview a person saw on the card, in their language, and its digest; a boss reads it back and checks it", async () => {
    const action = await prepareAs(keys.boss);
    const cookie = await signIn(logins.boss.username, logins.boss.password);
    const confirmed = await browserCall(`/api/actions/${action.action_id}/confirm`, cookie, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ via: "confirm_page", lang: "en" }),
    });
    expect(confirmed.status).toBe(200);
    const entry = await callJson(`/api/audit/${await auditIdOf(action.action_id)}`, { key: keys.boss });
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({
      action_id: action.action_id,
      user_id: "u-boss",
      user_name: "王老板",
      confirmed_via: "confirm_page",
      credential: null,
      values: { employee_id: "e-jx-zhangsan", quantity: 12, order_id: "o-jx-1" },
    });
    const shown = entry.body.shown_text as string;
    expect(shown).toBe(cardText(action, "en"));
    expect(shown.split("\n")).toContain("数量: 12 件");
    expect(shown.split("\n")[0]).toBe(action.summary);
    expect(entry.body.shown_sha256).toBe(await sha256Hex(shown));
    // The list gives the digest too, not the text.
    const listed = await callJson("/api/audit?limit=5", { key: keys.boss });
    const inList = (listed.body.entries as { action_id: string; shown_sha256: string; shown_text?: string }[]).find(
      (e) => e.action_id === action.action_id,
    );
    expect(inList?.shown_sha256).toBe(entry.body.shown_sha256);
    expect(inList).not.toHaveProperty("shown_text");
  });

  it("records an agent's confirm with its key's prefix and the preview as the agent was given it", async () => {
    const client = await mcpClient(keys.boss);
    const prepared = await client.callTool({ name: "prepare_piece_record", arguments: FOR_ZHANG });
    const action = prepared.structuredContent as unknown as PendingAction;
    const given = (prepared.content as { text: string }[])[0]?.text ?? "";
    await client.callTool({ name: "confirm_action", arguments: { action_id: action.action_id } });
    const entry = await callJson(`/api/audit/${await auditIdOf(action.action_id)}`, { key: keys.admin });
    expect(entry.body).toMatchObject({ confirmed_via: "agent_key", credential: "dev-", confirmed_key_prefix: "dev-" });
    // The preview's lines are the first lines of what the agent was given.
    expect(given.startsWith(entry.body.shown_text)).toBe(true);
    expect(entry.body.shown_sha256).toBe(await sha256Hex(entry.body.shown_text));
  });

  it("shows an entry to its workshop's boss and admin only", async () => {
    const action = await prepareAs(keys.boss);
    await (await mcpClient(keys.boss)).callTool({ name: "confirm_action", arguments: { action_id: action.action_id } });
    const id = await auditIdOf(action.action_id);
    expect((await callJson(`/api/audit/${id}`, { key: keys.staff })).status).toBe(403);
    expect((await callJson(`/api/audit/${id}`, { key: keys.otherBoss })).status).toBe(404);
    expect((await callJson(`/api/audit/nope`, { key: keys.boss })).status).toBe(404);
  });

  it("is append-only: no statement changes an entry, and no route changes or deletes one", async () => {
    const action = await prepareAs(keys.boss);
    await (await mcpClient(keys.boss)).callTool({ name: "confirm_action", arguments: { action_id: action.action_id } });
    const id = await auditIdOf(action.action_id);
    await expect(
      env.DB.prepare("UPDATE business_audit SET shown_text = 'other words' WHERE id = ?1").bind(id).run(),
    ).rejects.toThrow(/append-only/);
    for (const method of ["PATCH", "PUT", "DELETE"]) {
      const res = await callJson(`/api/audit/${id}`, { method, key: keys.admin, body: "{}" });
      expect(res.status, method).toBe(404);
    }
    const after = await callJson(`/api/audit/${id}`, { key: keys.admin });
    expect(after.body.shown_text).not.toBe("other words");
  });

  it("names the person of an entry written before names were stored, from the directory", async () => {
    await env.DB.prepare(
      `INSERT INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, created_at)
       VALUES ('audit-old', 't-jinxiu', 'u-staff', 'old', 'piece_record', 'pr-old', '{}', '2026-01-01T00:00:00.000Z')`,
    ).run();
    const entry = await callJson("/api/audit/audit-old", { key: keys.boss });
    expect(entry.body).toMatchObject({ user_name: "李娟", confirmed_via: null, shown_sha256: null, shown_text: null });
  });
});

describe("a confirm checks its person again", () => {
  it("refuses a person demoted since they prepared the write (403), writing nothing, and lets them once promoted again", async () => {
    const forZhang = await prepareAs(keys.boss);
    const cookie = await signIn(logins.boss.username, logins.boss.password);
    await env.DB.prepare("UPDATE users SET role = 'staff' WHERE id = 'u-boss'").run();
    try {
      const refused = await browserCall(`/api/actions/${forZhang.action_id}/confirm`, cookie, { method: "POST" });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: "forbidden" } });
      const byKey = await (await mcpClient(keys.boss)).callTool({
        name: "confirm_action",
        arguments: { action_id: forZhang.action_id },
      });
      expect((byKey.content as { text: string }[])[0]?.text).toMatch(/^forbidden: This write needs the 'boss' role/);
      expect(await written(forZhang.action_id)).toBe(0);
      // Still pending: promoted again, the boss can confirm it.
      expect((await callJson(`/api/actions/${forZhang.action_id}`, { key: keys.boss })).body.status).toBe("pending");
    } finally {
      await env.DB.prepare("UPDATE users SET role = 'boss' WHERE id = 'u-boss'").run();
    }
    const after = await browserCall(`/api/actions/${forZhang.action_id}/confirm`, cookie, { method: "POST" });
    expect(after.status).toBe(200);
    expect(await written(forZhang.action_id)).toBe(1);
  });

  for (const [what, change, undo] of [
    [
      "moved to another workshop",
      "UPDATE users SET tenant_id = 't-other' WHERE id = 'u-boss'",
      "UPDATE users SET tenant_id = 't-jinxiu' WHERE id = 'u-boss'",
    ],
    [
      "deactivated",
      "UPDATE users SET deactivated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = 'u-boss'",
      "UPDATE users SET deactivated_at = NULL WHERE id = 'u-boss'",
    ],
  ] as const) {
    it(`refuses a person ${what}, though a credential of theirs is still remembered`, async () => {
      // The key was just verified, so this Worker remembers it (for up to 30 s) as the boss of 锦绣制衣.
      const action = await prepareAs(keys.boss);
      await env.DB.prepare(change).run();
      try {
        const refused = await (await mcpClient(keys.boss)).callTool({
          name: "confirm_action",
          arguments: { action_id: action.action_id },
        });
        expect((refused.content as { text: string }[])[0]?.text).toMatch(
          /^forbidden: You are no longer an active member of this workshop/,
        );
        expect(await written(action.action_id)).toBe(0);
      } finally {
        await env.DB.prepare(undo).run();
      }
    });
  }
});

describe("faults mid-confirm", () => {
  it("leaves the action confirmable and nothing half-written when D1 fails inside the write, after the claim", async () => {
    const action = await prepareAs(keys.boss);
    const orderBefore = await env.DB.prepare("SELECT status FROM orders WHERE id = 'o-jx-1'").first<{ status: string }>();
    // The audit insert is the batch's last statement: failing it must undo the row and the order's change.
    await env.DB.prepare(
      "CREATE TRIGGER fail_audit BEFORE INSERT ON business_audit BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END",
    ).run();
    const cookie = await signIn(logins.boss.username, logins.boss.password);
    try {
      const failed = await browserCall(`/api/actions/${action.action_id}/confirm`, cookie, { method: "POST" });
      expect(failed.status).toBe(503);
      expect(await failed.json()).toMatchObject({
        error: { code: "unavailable", details: { action: { status: "pending" } } },
      });
      expect(await written(action.action_id)).toBe(0);
      expect((await callJson(`/api/actions/${action.action_id}`, { key: keys.boss })).body.status).toBe("pending");
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_audit").run();
    }
    expect(await env.DB.prepare("SELECT status FROM orders WHERE id = 'o-jx-1'").first()).toEqual(orderBefore);
    const retried = await browserCall(`/api/actions/${action.action_id}/confirm`, cookie, { method: "POST" });
    expect(await retried.json()).toMatchObject({ status: "confirmed" });
    const again = await browserCall(`/api/actions/${action.action_id}/confirm`, cookie, { method: "POST" });
    expect(await again.json()).toMatchObject({ status: "confirmed" });
    expect(await written(action.action_id)).toBe(1);
    const audits = await env.DB.prepare("SELECT COUNT(*) AS n FROM business_audit WHERE action_id = ?1")
      .bind(action.action_id)
      .first<{ n: number }>();
    expect(audits?.n).toBe(1);
  });

  it("keeps an action confirmable through the page when its object is reset mid-elicitation", async () => {
    const { actionId } = await firstRound();
    const stub = env.PENDING_ACTION.get(env.PENDING_ACTION.idFromString(actionId));
    await runInDurableObject(stub, (_, state) => state.abort("simulated reset")).catch(() => undefined);
    const cookie = await signIn(logins.boss.username, logins.boss.password);
    const page = await browserCall(`/api/actions/${actionId}/confirm`, cookie, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ via: "confirm_page", lang: "zh" }),
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ status: "confirmed" });
    expect(await written(actionId)).toBe(1);
  });
});
