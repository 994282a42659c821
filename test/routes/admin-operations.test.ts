import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { configFor } from "../../src/config.ts";
import { oauthBinding } from "../../src/federation/oauth.ts";
import { openWithAny, sealHeaders, sealJson } from "../../src/federation/secrets.ts";
import worker from "../../src/index.ts";
import { forgetKeywordTables, keywordTable } from "../../src/search/keyword-index.ts";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { loadDemoKnowledge } from "../demo-knowledge.ts";
import { dbOf, keys, testServices, users } from "../fixtures.ts";
import { BASE, call, callJson } from "../helpers.ts";

const OPERATOR = "dev-operator-key";

function asOperator(path: string, body: unknown) {
  return callJson(path, { method: "POST", key: OPERATOR, body: JSON.stringify(body) });
}

describe("POST /api/admin/workshops", () => {
  it("makes a workshop as a sign-up does, whose first person sets a password through the link and signs in", async () => {
    const made = await asOperator("/api/admin/workshops", { workshop_name: "新华制衣", name: "赵老板", username: "zhao-first" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      workshop: { name: "新华制衣", shard: expect.stringMatching(/^SHARD_[12]$/) },
      person: { name: "赵老板", username: "zhao-first", role: "boss" },
      expires_at: expect.any(String),
    });
    const url = new URL(made.body.set_password_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/set-password`);
    const token = new URLSearchParams(url.hash.slice(1)).get("token");
    // No password yet: nobody signs in as this person until the link is used.
    await expect(signIn("zhao-first", "a-long-password-1")).rejects.toThrow(/401/);
    const set = await callJson("/api/auth/set-password", {
      method: "POST",
      body: JSON.stringify({ token, password: "a-long-password-1" }),
    });
    expect(set.status).toBe(200);
    const cookie = await signIn("zhao-first", "a-long-password-1");
    const bases = await (await browserCall("/api/knowledge-bases", cookie)).json<{ knowledge_bases: { name: string }[] }>();
    expect(bases.knowledge_bases.length).toBeGreaterThanOrEqual(2);
    const placed = await env.DB.prepare("SELECT shard FROM tenants WHERE id = ?1").bind(made.body.workshop.id).first();
    expect(placed).toEqual({ shard: made.body.workshop.shard });
    // The link works once.
    const again = await callJson("/api/auth/set-password", {
      method: "POST",
      body: JSON.stringify({ token, password: "x-long-password-2" }),
    });
    expect(again.status).toBe(404);
  });

  it("places the workshop where the operator says, and may make its first person an admin", async () => {
    const made = await asOperator("/api/admin/workshops", {
      workshop_name: "东方服饰",
      name: "钱经理",
      username: "qian-first",
      role: "admin",
      shard: "SHARD_2",
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ workshop: { shard: "SHARD_2" }, person: { role: "admin" } });
  });

  it("refuses a taken username, an unknown shard, and anyone but the operator", async () => {
    expect((await asOperator("/api/admin/workshops", { workshop_name: "A", name: "B", username: "boss" })).status).toBe(409);
    const unknown = await asOperator("/api/admin/workshops", {
      workshop_name: "A",
      name: "B",
      username: "new-b",
      shard: "SHARD_9",
    });
    expect(unknown.status).toBe(400);
    const asBoss = await callJson("/api/admin/workshops", {
      method: "POST",
      key: keys.admin,
      body: JSON.stringify({ workshop_name: "A", name: "B", username: "new-c" }),
    });
    expect(asBoss.status).toBe(401);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE username IN ('new-b', 'new-c')").first("n")).toBe(0);
  });
});

describe("POST /api/admin/workshops/:id/reindex", () => {
  const QUESTIONS = ["计件工资怎么算", "衣服跳针怎么办", "how do I create an order", "上领子的单价"];

  async function searches() {
    const answers: unknown[] = [];
    for (const question of QUESTIONS) {
      for (const search_mode of ["keyword", "vector", "hybrid"]) {
        const res = await callJson("/api/v1/knowledge-search", {
          method: "POST",
          key: keys.staff,
          body: JSON.stringify({ question, search_mode, top_k: 8, min_score: 0 }),
        });
        answers.push(res.body);
      }
    }
    return answers;
  }

  it("rebuilds a workshop's keyword index and vectors from its chunks, every search as it was", async () => {
    await loadDemoKnowledge();
    const before = await searches();
    expect(JSON.stringify(before)).toContain("knowledge_title");
    // As a restored database has them: chunks, and neither keyword index nor vectors.
    const db = dbOf(users.boss.tenantId);
    const table = await keywordTable(users.boss.tenantId);
    await db.batch([db.prepare(`DROP TABLE ${table}_vocab`), db.prepare(`DROP TABLE ${table}`)]);
    forgetKeywordTables();
    const { results } = await db
      .prepare("SELECT id FROM chunks WHERE tenant_id = ?1")
      .bind(users.boss.tenantId)
      .all<{ id: string }>();
    await testServices().search.backends.vectorIndex.delete(
      users.boss.tenantId,
      results.map((r) => r.id),
    );
    const wiped = (await searches()) as { results: unknown[] }[];
    expect(wiped.every((answer) => answer.results.length === 0)).toBe(true);
    let after: number | null = null;
    let chunks = 0;
    let steps = 0;
    do {
      const step = await asOperator(`/api/admin/workshops/${users.boss.tenantId}/reindex`, { after });
      expect(step.status).toBe(200);
      chunks += step.body.chunks;
      after = step.body.after;
      steps++;
    } while (after !== null);
    expect(chunks).toBe(results.length);
    expect(steps).toBe(Math.floor(results.length / 100) + 1);
    expect(await searches()).toEqual(before);
  });

  it("answers 404 for a workshop that does not exist", async () => {
    expect((await asOperator("/api/admin/workshops/t-nowhere/reindex", {})).status).toBe(404);
  });
});

describe("POST /api/admin/secrets/reseal", () => {
  const OLD = env.MCP_SECRETS_KEY;
  const NEW = "Nw7Qp4Rs1Tu8Vx5Yz2Ab9Cd6Ef3Gh0Ij7Kl4Mn1Op8=";
  const GONE = "Gx1Hy4Iz7Ja0Kb3Lc6Md9Ne2Of5Pg8Qh1Ri4Sj7Tk0=";

  /** The Worker with MCP_SECRETS_KEY_NEXT set, as `npm run secrets:rotate` sets it. */
  async function rotating(path: string, body: unknown) {
    const bindings = { ...env, MCP_SECRETS_KEY_NEXT: NEW } as Env;
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${OPERATOR}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
    await waitOnExecutionContext(ctx);
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  async function server(tenantId: string, id: string, secret: string) {
    const headers = await sealHeaders({ secret, headers: { Authorization: `Bearer for-${id}` }, binding: `${tenantId}/${id}` });
    const oauth = await sealJson({
      secret,
      value: { tokens: { access_token: `at-${id}` } },
      binding: oauthBinding({ tenantId, id }),
    });
    await dbOf(tenantId)
      .prepare(
        "INSERT INTO mcp_servers (id, tenant_id, name, url, headers_sealed, auth_type, oauth_sealed) VALUES (?1, ?2, ?1, 'https://x.example.com/mcp', ?3, 'oauth', ?4)",
      )
      .bind(id, tenantId, headers, oauth)
      .run();
  }

  async function sealedOf(tenantId: string, id: string) {
    return (await dbOf(tenantId)
      .prepare("SELECT headers_sealed, oauth_sealed FROM mcp_servers WHERE id = ?1")
      .bind(id)
      .first()) as { headers_sealed: string; oauth_sealed: string };
  }

  it("seals every stored secret on every database with the new key, which alone then opens them", async () => {
    expect(configFor(env).federation.secretsKey).toBe(OLD);
    await server(users.boss.tenantId, "mcp_rot_1", OLD);
    await server(users.otherBoss.tenantId, "mcp_rot_2", OLD);
    await server(users.otherBoss.tenantId, "mcp_rot_3", NEW);
    await server(users.boss.tenantId, "mcp_rot_lost", GONE);
    const seen = { resealed: 0, current: 0, databases: [] as string[], unreadable: [] as unknown[] };
    let cursor: string | null = null;
    do {
      const step = await rotating("/api/admin/secrets/reseal", { cursor });
      expect(step.status).toBe(200);
      expect(step.body.rotating).toBe(true);
      expect(JSON.stringify(step.body)).not.toMatch(/Bearer for-|at-mcp/);
      seen.resealed += step.body.resealed;
      seen.current += step.body.current;
      seen.databases.push(step.body.database);
      seen.unreadable.push(...step.body.unreadable);
      cursor = step.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual({
      resealed: 4,
      current: 2,
      databases: ["DB", "SHARD_1", "SHARD_2"],
      unreadable: [
        { tenant_id: users.boss.tenantId, server_id: "mcp_rot_lost", what: "headers" },
        { tenant_id: users.boss.tenantId, server_id: "mcp_rot_lost", what: "oauth" },
      ],
    });
    for (const [tenantId, id] of [
      [users.boss.tenantId, "mcp_rot_1"],
      [users.otherBoss.tenantId, "mcp_rot_2"],
      [users.otherBoss.tenantId, "mcp_rot_3"],
    ] as const) {
      const sealed = await sealedOf(tenantId, id);
      const headers = await openWithAny({ keys: [NEW], sealed: sealed.headers_sealed, binding: `${tenantId}/${id}` });
      expect(headers?.value).toEqual({ Authorization: `Bearer for-${id}` });
      const oauth = await openWithAny({ keys: [NEW], sealed: sealed.oauth_sealed, binding: oauthBinding({ tenantId, id }) });
      expect(oauth?.value).toEqual({ tokens: { access_token: `at-${id}` } });
      expect(await openWithAny({ keys: [OLD], sealed: sealed.headers_sealed, binding: `${tenantId}/${id}` })).toBeNull();
    }
    // A second pass finds nothing left to reseal.
    const again = await rotating("/api/admin/secrets/reseal", { cursor: null });
    expect(again.body.resealed).toBe(0);
  });

  it("refuses a cursor it did not give", async () => {
    const res = await call("/api/admin/secrets/reseal", {
      method: "POST",
      key: OPERATOR,
      body: JSON.stringify({ cursor: '{"database":"SHARD_77","after":null}' }),
    });
    expect(res.status).toBe(400);
  });
});
