import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inviteCodeHash } from "../../src/auth/invites.ts";
import { apiKeyCache } from "../../src/auth/key-cache.ts";
import { createWorkshop } from "../../src/auth/workshops.ts";
import { configFor } from "../../src/config.ts";
import { shardsOf } from "../../src/services.ts";
import { freshUsername } from "../auth/people-api.ts";
import { keys } from "../fixtures.ts";
import { callJson } from "../helpers.ts";

const OPERATOR = "dev-operator-key";
const boss = () => ({ name: "新老板", username: freshUsername("shard"), passwordHash: "pbkdf2$unused" });
const placed = async (id: string) =>
  (await env.DB.prepare("SELECT shard FROM tenants WHERE id = ?1").bind(id).first<{ shard: string }>())?.shard;

describe("the operator and the shards", () => {
  it("places a new workshop on the shard holding the least data, its record there before the directory's", async () => {
    const sizes = await callJson("/api/admin/shards", { key: OPERATOR });
    expect(sizes.status).toBe(200);
    const shards = sizes.body.shards.filter((s: { name: string }) => s.name !== "DB");
    const smallest = [...shards].sort((a, b) => a.bytes - b.bytes)[0].name;
    const { user } = await createWorkshop({ env, config: configFor(env), db: env.DB, workshopName: "分片车间", boss: boss() });
    expect(await placed(user.tenant_id)).toBe(smallest);
    const record = await (shardsOf(env).get(smallest) as D1Database)
      .prepare("SELECT name FROM tenants WHERE id = ?1")
      .bind(user.tenant_id)
      .first();
    expect(record).toEqual({ name: "分片车间" });
    // Its starting knowledge bases are on that shard and nowhere else.
    for (const [name, db] of shardsOf(env)) {
      const kbs = await db
        .prepare("SELECT COUNT(*) AS n FROM knowledge_bases WHERE tenant_id = ?1")
        .bind(user.tenant_id)
        .first<{ n: number }>();
      expect(kbs?.n, name).toBe(name === smallest ? 3 : 0);
    }
  });

  it("places a workshop signed up with an invite on the shard the invite names, and refuses an unbound one", async () => {
    const refused = await callJson("/api/admin/invites", {
      key: OPERATOR,
      method: "POST",
      body: JSON.stringify({ shard: "SHARD_7" }),
    });
    expect(refused.status).toBe(400);
    const invite = await callJson("/api/admin/invites", {
      key: OPERATOR,
      method: "POST",
      body: JSON.stringify({ shard: "SHARD_1" }),
    });
    expect(invite.status).toBe(201);
    expect(invite.body.shard).toBe("SHARD_1");
    const { user } = await createWorkshop({
      env,
      config: configFor(env),
      db: env.DB,
      workshopName: "指定分片车间",
      boss: boss(),
      inviteCodeHash: await inviteCodeHash(invite.body.code),
    });
    expect(await placed(user.tenant_id)).toBe("SHARD_1");
  });

  it("lists each workshop with its shard and how much it stores there, as counts only", async () => {
    const list = await callJson("/api/admin/workshops?limit=200", { key: OPERATOR });
    expect(list.status).toBe(200);
    const jinxiu = list.body.workshops.find((w: { id: string }) => w.id === "t-jinxiu");
    expect(jinxiu).toMatchObject({ shard: "SHARD_1", moving_to: null });
    expect(jinxiu.usage.piece_records).toBeGreaterThan(100);
    expect(jinxiu.usage).toMatchObject({
      documents: expect.any(Number),
      chunks: expect.any(Number),
      text_bytes: expect.any(Number),
    });
    expect(list.body.workshops.find((w: { id: string }) => w.id === "t-other")).toMatchObject({ shard: "SHARD_2" });
    expect(list.text).not.toContain("张三");
  });

  it("moves a workshop step by step over the API, answering a step that must wait with Retry-After, and lets it be aborted", async () => {
    const step = await callJson("/api/admin/workshops/t-other/move", {
      key: OPERATOR,
      method: "POST",
      body: JSON.stringify({ to: "SHARD_1" }),
    });
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ state: "fenced", next: "wait", from: "SHARD_2", to: "SHARD_1" });
    expect(step.res.headers.get("Retry-After")).toBe("150");
    // Fenced (once an isolate's 30 s trust in a key's placement has run out): its people read, and
    // their writes are refused without being lost.
    apiKeyCache.forgetTenant("t-other");
    expect((await callJson("/api/knowledge-bases", { key: keys.otherBoss })).status).toBe(200);
    const write = await callJson("/api/knowledge-bases", {
      key: keys.otherBoss,
      method: "POST",
      body: JSON.stringify({ name: "搬家时" }),
    });
    expect(write.status).toBe(503);
    expect(write.body.error.code).toBe("workshop_moving");
    const other = await callJson("/api/admin/workshops/t-other/move", {
      key: OPERATOR,
      method: "POST",
      body: JSON.stringify({ to: "DB" }),
    });
    expect(other.status).toBe(409);
    const aborted = await callJson("/api/admin/workshops/t-other/move/abort", { key: OPERATOR, method: "POST" });
    expect(aborted.body).toMatchObject({ state: "done", from: "SHARD_2" });
    expect(await placed("t-other")).toBe("SHARD_2");
    // An isolate trusts a key's placement (fenced, here) for 30 s; past that, writes go through.
    apiKeyCache.forgetTenant("t-other");
    expect(
      (await callJson("/api/knowledge-bases", { key: keys.otherBoss, method: "POST", body: JSON.stringify({ name: "搬家后" }) }))
        .status,
    ).toBe(201);
  });

  it("answers a workshop's key, not an operator's, 401 on every shard route", async () => {
    for (const [method, path] of [
      ["GET", "/api/admin/shards"],
      ["POST", "/api/admin/workshops/t-jinxiu/move"],
      ["POST", "/api/admin/workshops/t-jinxiu/move/abort"],
    ]) {
      const body = method === "POST" ? { body: JSON.stringify({ to: "SHARD_2" }) } : {};
      const res = await callJson(path as string, { key: keys.admin, method, ...body });
      expect([401, 429], path).toContain(res.status);
    }
  });
});
