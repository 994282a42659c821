import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { holdAction } from "../../src/actions/actions.ts";
import { hashApiKey, visiblePrefix } from "../../src/auth/api-keys.ts";
import { apiKeyCache } from "../../src/auth/key-cache.ts";
import { abortMove, type MoveContext, type MoveReport, moveStep } from "../../src/placement/move.ts";
import { WORKSHOP_TABLES } from "../../src/placement/tables.ts";
import { shardsOf } from "../../src/services.ts";
import { testServices } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";

const context = (): MoveContext => ({ directory: env.DB, shards: shardsOf(env) });
const shard = (name: string) => shardsOf(env).get(name) as D1Database;

/** Every table's rows of one workshop on one database, sorted, for comparing two databases. */
async function snapshot(db: D1Database, workshop: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, where] of Object.entries(WORKSHOP_TABLES)) {
    const row = await db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`).bind(workshop).first<{ n: number }>();
    counts[table] = row?.n ?? 0;
  }
  return counts;
}

/** Runs a move to its end, as `npm run workshop:move` does, with a clock that jumps over the waits. */
async function runMove(workshopId: string, to: string, start = new Date(), onStep?: (r: MoveReport) => Promise<void>) {
  let now = start;
  const reports: MoveReport[] = [];
  for (let i = 0; i < 10_000; i++) {
    const report = await moveStep(context(), { workshopId, to, now });
    reports.push(report);
    await onStep?.(report);
    if (report.next === "done") {
      // The clock jumped over the waits, past the 30 s for which an isolate trusts a key's placement.
      apiKeyCache.forgetTenant(workshopId);
      return reports;
    }
    if (report.next === "wait") now = new Date(now.getTime() + (report.retry_after_seconds ?? 0) * 1000);
  }
  throw new Error("the move did not end");
}

// Each test moves a workshop of its own: the file's tests share their databases.
let serial = 0;
let W = "";
let BOSS_KEY = "";

/**
 * A small workshop of its own on SHARD_1, with a boss, a knowledge base and document (chunks and
 * keyword rows), business records and a chat: a row in most tables, few enough to move quickly.
 */
async function smallWorkshop(): Promise<void> {
  serial++;
  W = `t-moving-${serial}`;
  BOSS_KEY = `${W}-boss-key`;
  const person = `u-${W}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO tenants (id, name, shard) VALUES (?1, '搬家车间', 'SHARD_1')").bind(W),
    env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES (?2, ?1, '搬家老板', 'boss')").bind(W, person),
    env.DB.prepare("INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (?2, ?1, ?3, 't', ?4, ?5)").bind(
      W,
      `k-${W}`,
      person,
      visiblePrefix(BOSS_KEY),
      await hashApiKey(BOSS_KEY),
    ),
  ]);
  const db = shard("SHARD_1");
  const id = (what: string) => `${what}-${W}`;
  await db.batch([
    db.prepare("INSERT INTO tenants (id, name) VALUES (?1, '搬家车间')").bind(W),
    db
      .prepare("INSERT INTO employees (id, tenant_id, name, employee_no, person_id) VALUES (?2, ?1, '小王', '001', ?3)")
      .bind(W, id("e"), person),
    db.prepare("INSERT INTO styles (id, tenant_id, code, name) VALUES (?2, ?1, 'M1', '外套')").bind(W, id("s")),
    db
      .prepare("INSERT INTO processes (id, tenant_id, style_id, name, unit_price_cents) VALUES (?2, ?1, ?3, '上袖', 90)")
      .bind(W, id("p"), id("s")),
    db
      .prepare(
        "INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date) VALUES (?2, ?1, '2026-001', '客户', ?3, 100, '2026-12-31')",
      )
      .bind(W, id("o"), id("s")),
    ...Array.from({ length: 5 }, (_, i) =>
      db
        .prepare(
          "INSERT INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date) VALUES (?2, ?1, ?3, ?4, ?5, ?6, 90, '2026-11-02')",
        )
        .bind(W, `pr-${i}-${W}`, id("e"), id("p"), id("o"), 10 + i),
    ),
    db.prepare("INSERT INTO chats (id, tenant_id, user_id, title) VALUES (?2, ?1, ?3, '对话')").bind(W, id("c"), person),
    db.prepare("INSERT INTO chat_messages (chat_id, id, seq, role, parts) VALUES (?1, 'm1', 1, 'user', '[]')").bind(id("c")),
  ]);
  const kb = await callJson("/api/knowledge-bases", {
    method: "POST",
    key: BOSS_KEY,
    body: JSON.stringify({ name: "搬家手册" }),
  });
  const doc = await call(`/api/knowledge-bases/${kb.body.id}/documents`, {
    method: "POST",
    key: BOSS_KEY,
    body: JSON.stringify({ filename: "move.md", content: "# 搬家\n\n搬家那天，样衣放在二号柜。\n\n## 钥匙\n\n钥匙交给门卫。" }),
  });
  expect(doc.status).toBe(201);
}

const placement = (id: string) =>
  env.DB.prepare("SELECT shard, move_to, move_state FROM tenants WHERE id = ?1").bind(id).first<Record<string, unknown>>();

describe("moving a workshop to another shard", () => {
  beforeEach(smallWorkshop);
  afterEach(() => apiKeyCache.forgetTenant(W));

  it("copies every row, checks them, switches the directory and deletes the old rows", async () => {
    const before = await snapshot(shard("SHARD_1"), W);
    expect(before.piece_records).toBeGreaterThan(0);
    const reports = await runMove(W, "SHARD_2");
    expect(reports.map((r) => r.state)).toContain("verifying");
    const switched = reports.find((r) => r.state === "switched" && r.checked);
    expect(switched?.checked).toMatchObject({ piece_records: before.piece_records, chunks: before.chunks });
    expect(await placement(W)).toEqual({ shard: "SHARD_2", move_to: null, move_state: null });
    expect(await snapshot(shard("SHARD_2"), W)).toEqual(before);
    expect(Object.values(await snapshot(shard("SHARD_1"), W)).every((n) => n === 0)).toBe(true);
    // The other workshop on the target is untouched, and the moved one answers from its new home.
    expect((await snapshot(shard("SHARD_2"), "t-other")).piece_records).toBeGreaterThan(0);
    const search = await callJson("/api/v1/knowledge-search", {
      method: "POST",
      key: BOSS_KEY,
      body: JSON.stringify({ question: "样衣放在哪里", search_mode: "keyword" }),
    });
    expect(search.status).toBe(200);
    expect(search.text).toContain("二号柜");
    const records = await callJson("/mcp", {
      method: "POST",
      key: BOSS_KEY,
      headers: { Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "query_piece_records", arguments: { employee: "小王", limit: 10 } },
      }),
    });
    expect(records.text).toContain(`pr-4-${W}`);
    await runMove(W, "SHARD_1");
    expect(await snapshot(shard("SHARD_1"), W)).toEqual(before);
  });

  it("refuses writes while fenced with 503 and Retry-After, serves reads, and loses or doubles none of the writes it took", async () => {
    const write = async (n: number) => {
      const res = await call("/api/knowledge-bases", {
        method: "POST",
        key: BOSS_KEY,
        body: JSON.stringify({ name: `迁移中-${n}` }),
      });
      if (res.status === 201) return n;
      expect(res.status, await res.text()).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("60");
      return null;
    };
    const accepted: number[] = [];
    let n = 0;
    let now = new Date();
    for (let step = 0; step < 1_000; step++) {
      apiKeyCache.forgetTenant(W);
      // Each step of the move runs while three writes and a read of the workshop race it.
      const [report, ...written] = await Promise.all([
        moveStep(context(), { workshopId: W, to: "SHARD_2", now }),
        write(++n),
        write(++n),
        write(++n),
        call("/api/knowledge-bases", { key: BOSS_KEY }).then((res) => expect(res.status).toBe(200)),
      ]);
      accepted.push(...written.filter((x): x is number => typeof x === "number"));
      if (report.next === "done") break;
      if (report.next === "wait") now = new Date(now.getTime() + (report.retry_after_seconds ?? 0) * 1000);
    }
    apiKeyCache.forgetTenant(W);
    for (let i = 0; i < 3; i++) accepted.push(...[await write(++n)].filter((x): x is number => x !== null));
    const { results } = await shard("SHARD_2")
      .prepare("SELECT name FROM knowledge_bases WHERE tenant_id = ?1 AND name LIKE '迁移中-%'")
      .bind(W)
      .all<{ name: string }>();
    // Every write that was answered 201 is on the new shard, once; every refused one is nowhere.
    expect(results.map((r) => Number(r.name.slice(4))).sort((a, b) => a - b)).toEqual(accepted.sort((a, b) => a - b));
    expect(accepted.length).toBeGreaterThan(3);
    expect(accepted.length).toBeLessThan(n);
    const left = await shard("SHARD_1").prepare("SELECT COUNT(*) AS n FROM knowledge_bases WHERE tenant_id = ?1").bind(W).first();
    expect(left).toEqual({ n: 0 });
    await runMove(W, "SHARD_1");
  });

  it("goes on where it stopped when a step is interrupted, and ends with the same rows", async () => {
    const before = await snapshot(shard("SHARD_1"), W);
    let now = new Date();
    let interrupted = 0;
    for (let i = 0; i < 10_000; i++) {
      // Every third step fails half-way, as a Worker stopped mid-step would: its batch is not written.
      const flaky = i % 3 === 2 && interrupted < 20;
      const shards = flaky ? withFailingBatch(shardsOf(env), "SHARD_2") : shardsOf(env);
      let report: MoveReport;
      try {
        report = await moveStep({ directory: env.DB, shards }, { workshopId: W, to: "SHARD_2", now });
      } catch (error) {
        expect(String(error)).toContain("injected");
        interrupted++;
        continue;
      }
      if (report.next === "done") break;
      if (report.next === "wait") now = new Date(now.getTime() + (report.retry_after_seconds ?? 0) * 1000);
    }
    expect(interrupted).toBeGreaterThan(0);
    expect(await placement(W)).toMatchObject({ shard: "SHARD_2", move_state: null });
    expect(await snapshot(shard("SHARD_2"), W)).toEqual(before);
    await runMove(W, "SHARD_1");
  });

  it("rolls back when the copy differs from the original, leaving the workshop where it was", async () => {
    const before = await snapshot(shard("SHARD_1"), W);
    let now = new Date();
    let failure: unknown;
    for (let i = 0; i < 10_000 && !failure; i++) {
      try {
        const report = await moveStep(context(), { workshopId: W, to: "SHARD_2", now });
        if (report.state === "verifying" && report.table === undefined) {
          // Someone changed a copied row behind the move's back.
          await shard("SHARD_2").prepare("UPDATE piece_records SET quantity = quantity + 1 WHERE tenant_id = ?1").bind(W).run();
        }
        if (report.next === "wait") now = new Date(now.getTime() + (report.retry_after_seconds ?? 0) * 1000);
      } catch (error) {
        failure = error;
      }
    }
    expect(String(failure)).toContain("rolled back");
    expect(await placement(W)).toEqual({ shard: "SHARD_1", move_to: null, move_state: null });
    expect(await snapshot(shard("SHARD_1"), W)).toEqual(before);
    expect(Object.values(await snapshot(shard("SHARD_2"), W)).every((n) => n === 0)).toBe(true);
    expect((await upload()).status).toBe(201);
  });

  it("can be aborted before its switch, and not after", async () => {
    const now = new Date();
    await moveStep(context(), { workshopId: W, to: "SHARD_2", now });
    await moveStep(context(), { workshopId: W, to: "SHARD_2", now: new Date(now.getTime() + 200_000) });
    await moveStep(context(), { workshopId: W, to: "SHARD_2", now: new Date(now.getTime() + 200_000) });
    expect(await abortMove(context(), W)).toMatchObject({ state: "done" });
    expect(await placement(W)).toEqual({ shard: "SHARD_1", move_to: null, move_state: null });
    expect(Object.values(await snapshot(shard("SHARD_2"), W)).every((n) => n === 0)).toBe(true);
    await expect(moveStep(context(), { workshopId: W, to: "SHARD_9" })).rejects.toThrow(/No database 'SHARD_9'/);
  });
});

describe("a move meeting other work on the workshop", () => {
  beforeEach(smallWorkshop);
  afterEach(() => apiKeyCache.forgetTenant(W));

  it("an abort that meets the switch leaves the switched workshop whole and refuses", async () => {
    const before = await snapshot(shard("SHARD_1"), W);
    let now = new Date();
    while ((await placement(W))?.move_state !== "verifying") {
      const report = await moveStep(context(), { workshopId: W, to: "SHARD_2", now });
      if (report.next === "wait") now = new Date(now.getTime() + (report.retry_after_seconds ?? 0) * 1000);
    }
    // The move's last check runs (and switches) just after the abort has read where the move stands.
    const switchMeanwhile = async () => {
      while ((await placement(W))?.move_state === "verifying") await moveStep(context(), { workshopId: W, to: "SHARD_2", now });
    };
    await expect(abortMove({ directory: racing(env.DB, switchMeanwhile), shards: shardsOf(env) }, W)).rejects.toThrow(
      /at the same time|switched/,
    );
    expect(await placement(W)).toMatchObject({ shard: "SHARD_2", move_to: null, move_state: "switched" });
    expect(await snapshot(shard("SHARD_2"), W)).toEqual(before);
    await runMove(W, "SHARD_2", new Date(now.getTime() + 200_000));
    expect(await snapshot(shard("SHARD_2"), W)).toEqual(before);
    await runMove(W, "SHARD_1");
  });

  it("refuses to delete the workshop until its move is done, emptying nothing on the way", async () => {
    const admin = `${W}-admin-key`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES (?2, ?1, '管理员', 'admin')").bind(W, `u-a-${W}`),
      env.DB.prepare(
        "INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (?2, ?1, ?3, 'a', ?4, ?5)",
      ).bind(W, `ka-${W}`, `u-a-${W}`, visiblePrefix(admin), await hashApiKey(admin)),
    ]);
    const services = testServices(W, "SHARD_1");
    const boss = { userId: `u-${W}`, tenantId: W, role: "boss" as const };
    const prepared = { kind: "order", write: null, summary: "s", preview: [], ambiguities: [], needs: "boss" as const };
    const action = await holdAction({ actions: services.actions, user: boss, prepared });
    const stored = () =>
      runInDurableObject(
        env.PENDING_ACTION.get(env.PENDING_ACTION.idFromString(action.action_id)),
        async (_object, state) => (await state.storage.list()).size,
      );
    const remove = async () => {
      apiKeyCache.forgetTenant(W);
      return call(`/api/workshop?confirm=${W}`, { method: "DELETE", key: admin });
    };
    const before = await snapshot(shard("SHARD_1"), W);
    let now = new Date();
    let report = await moveStep(context(), { workshopId: W, to: "SHARD_2", now });
    expect(report.state).toBe("fenced");
    expect((await remove()).status).toBe(503);
    expect(await stored()).toBeGreaterThan(0);
    while (report.state !== "switched") {
      if (report.next === "wait") now = new Date(now.getTime() + (report.retry_after_seconds ?? 0) * 1000);
      report = await moveStep(context(), { workshopId: W, to: "SHARD_2", now });
    }
    // Switched, the old rows not yet deleted: a deletion now would leave them on SHARD_1 for good.
    expect((await remove()).status).toBe(503);
    expect(await snapshot(shard("SHARD_1"), W)).toEqual(before);
    expect(await snapshot(shard("SHARD_2"), W)).toEqual(before);
    await runMove(W, "SHARD_2", new Date(now.getTime() + 200_000));
    expect((await remove()).status).toBe(200);
    expect(await stored()).toBe(0);
    for (const name of ["SHARD_1", "SHARD_2"]) {
      expect(
        Object.values(await snapshot(shard(name), W)).every((n) => n === 0),
        name,
      ).toBe(true);
    }
  });
});

describe("reads while a workshop is fenced", () => {
  beforeEach(smallWorkshop);
  afterEach(() => apiKeyCache.forgetTenant(W));

  it("lists a knowledge base's documents although one has a stalled job that cannot be started again yet", async () => {
    const db = shard("SHARD_1");
    const doc = await db
      .prepare("SELECT id, kb_id FROM documents WHERE tenant_id = ?1")
      .bind(W)
      .first<{ id: string; kb_id: string }>();
    // A job whose instance gave up while the fence refused its writes, two minutes ago or more.
    await db
      .prepare(
        `INSERT INTO document_jobs (document_id, tenant_id, job_id, base_generation, kind, content_hash, size_bytes, status, updated_at)
         VALUES (?1, ?2, ?3, 1, 'pdf', 'h', 1, 'parsing', '2026-01-01T00:00:00.000Z')`,
      )
      .bind(doc?.id, W, `job-${W}`)
      .run();
    await moveStep(context(), { workshopId: W, to: "SHARD_2" });
    apiKeyCache.forgetTenant(W);
    const res = await call(`/api/knowledge-bases/${doc?.kb_id}/documents`, { key: BOSS_KEY });
    expect(res.status, await res.text()).toBe(200);
    expect(await db.prepare("SELECT job_id FROM document_jobs WHERE document_id = ?1").bind(doc?.id).first()).toEqual({
      job_id: `job-${W}`,
    });
    await abortMove(context(), W);
    await db.prepare("DELETE FROM document_jobs WHERE document_id = ?1").bind(doc?.id).run();
  });
});

describe("a move onto a shard where another workshop has the same chat id", () => {
  beforeEach(smallWorkshop);
  afterEach(() => apiKeyCache.forgetTenant(W));

  it("puts none of its messages into the other workshop's chat, and rolls back", async () => {
    // Chat ids are the client's choice: 华美服饰 on SHARD_2 has one that the moving workshop has too.
    const target = shard("SHARD_2");
    await target.batch([
      target
        .prepare("INSERT INTO chats (id, tenant_id, user_id, title) VALUES (?1, 't-other', 'u-other-boss', '别人的')")
        .bind(`c-${W}`),
      target
        .prepare("INSERT INTO chat_messages (chat_id, id, seq, role, parts) VALUES (?1, 'theirs', 7, 'user', '[]')")
        .bind(`c-${W}`),
    ]);
    await expect(runMove(W, "SHARD_2")).rejects.toThrow(/rolled back/);
    const { results } = await target.prepare("SELECT id FROM chat_messages WHERE chat_id = ?1").bind(`c-${W}`).all();
    expect(results).toEqual([{ id: "theirs" }]);
    expect(await placement(W)).toEqual({ shard: "SHARD_1", move_to: null, move_state: null });
    await target.prepare("DELETE FROM chats WHERE id = ?1").bind(`c-${W}`).run();
  });
});

/** `db`, whose first read of where a move stands runs `meanwhile` before it answers. */
function racing(db: D1Database, meanwhile: () => Promise<void>): D1Database {
  let raced = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          if (raced || !sql.startsWith("SELECT id, shard, move_to")) return statement;
          raced = true;
          return {
            bind: (...values: unknown[]) => {
              const bound = statement.bind(...values);
              return {
                first: async () => {
                  const row = await bound.first();
                  await meanwhile();
                  return row;
                },
              };
            },
          };
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function upload() {
  apiKeyCache.forgetTenant(W);
  return call("/api/knowledge-bases", { method: "POST", key: BOSS_KEY, body: JSON.stringify({ name: `之后-${Date.now()}` }) });
}

/** The shards, with `name`'s batches failing before they write anything. */
function withFailingBatch(shards: ReadonlyMap<string, D1Database>, name: string): ReadonlyMap<string, D1Database> {
  const real = shards.get(name) as D1Database;
  const failing = new Proxy(real, {
    get(target, property) {
      if (property === "batch") return () => Promise.reject(new Error("injected failure"));
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return new Map([...shards].map(([key, db]) => [key, key === name ? failing : db]));
}
