import { applyD1Migrations, createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { type DatabaseDump, dumpDatabase, restoreDatabase, restoreRefusal, type SqlDatabase } from "../scripts/backup/dump.ts";
import worker from "../src/index.ts";
import { forgetKeywordTables } from "../src/search/keyword-index.ts";
import { shardsOf } from "../src/services.ts";
import { sendChat, storedChat } from "./chat/chat-api.ts";
import { signIn } from "./chat/sign-in.ts";
import { readChunks } from "./chat/stream.ts";
import { loadDemoKnowledge } from "./demo-knowledge.ts";
import { keys, testServices, users } from "./fixtures.ts";
import { BASE } from "./helpers.ts";

const OPERATOR = "dev-operator-key";
const ORIGIN = BASE;

/** D1 as `npm run backup` and `npm run restore` see a database (there through wrangler). */
function sqlOf(db: D1Database): SqlDatabase {
  return {
    query: async (sqls) => (await db.batch<Record<string, unknown>>(sqls.map((s) => db.prepare(s)))).map((r) => r.results),
    run: async (statements) => {
      await db.batch(statements.map((s) => db.prepare(s)));
    },
  };
}

/** The Worker, served from `bindings`. */
function fetcherOf(bindings: Env) {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(input, init) as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

type Fetcher = ReturnType<typeof fetcherOf>;

/** Every search, record and chat the demo shows, as the Worker served from `bindings` answers them. */
async function observe(fetcher: Fetcher, cookie: string, chatId: string) {
  const searches: unknown[] = [];
  for (const question of ["计件工资怎么算", "衣服跳针怎么办", "上领子的单价"]) {
    for (const search_mode of ["keyword", "vector", "hybrid"]) {
      const res = await fetcher(`${BASE}/api/v1/knowledge-search`, {
        method: "POST",
        headers: { Authorization: `Bearer ${keys.staff}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question, search_mode, top_k: 8, min_score: 0 }),
      });
      searches.push(await res.json());
    }
  }
  const client = new Client({ name: "weft-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
      fetch: (url, init) => fetcher(url, init),
      requestInit: { headers: { Authorization: `Bearer ${keys.boss}` } },
    }),
  );
  const records: unknown[] = [];
  for (const name of ["query_piece_records", "query_orders", "query_employees", "query_payroll"]) {
    records.push((await client.callTool({ name, arguments: {} })).structuredContent);
  }
  await client.close();
  const chat = await fetcher(`${BASE}/api/chats/${chatId}`, { headers: { Cookie: cookie } });
  const chats = await fetcher(`${BASE}/api/chats`, { headers: { Cookie: cookie } });
  const people = await fetcher(`${BASE}/api/people`, { headers: { Cookie: cookie } });
  return { searches, records, chat: await chat.json(), chats: await chats.json(), people: await people.json() };
}

describe("a backup", () => {
  it("restored into empty databases, with its indexes rebuilt, answers every search, record and chat as before", async () => {
    await loadDemoKnowledge();
    const cookie = await signIn("boss", "boss123");
    await readChunks(await sendChat(cookie, "backup-chat", "衣服起皱怎么办"));
    await storedChat(cookie, "backup-chat", 2);
    const original = fetcherOf(env);
    const before = await observe(original, cookie, "backup-chat");
    expect(JSON.stringify(before.searches)).toContain("knowledge_title");
    expect(JSON.stringify(before.records)).toContain("summary");
    expect((before.chat as { messages: unknown[] }).messages).toHaveLength(2);

    const dumps: Record<string, DatabaseDump> = {};
    for (const [name, db] of shardsOf(env)) dumps[name] = await dumpDatabase(sqlOf(db));
    expect(Object.keys(dumps)).toEqual(["DB", "SHARD_1", "SHARD_2"]);
    // The keyword indexes are not in the backup: they are rebuilt from the chunks.
    expect(Object.keys(dumps.SHARD_1?.manifest.tables ?? {})).not.toContain(expect.stringMatching(/^fts_/));
    expect(dumps.SHARD_1?.manifest.tables.chunks).toBeGreaterThan(50);
    expect(dumps.DB?.manifest.tables.users).toBeGreaterThan(0);

    const restored = { DB: env.RESTORE_DB, SHARD_1: env.RESTORE_SHARD_1, SHARD_2: env.RESTORE_SHARD_2 };
    for (const [name, db] of Object.entries(restored)) {
      expect(await restoreRefusal(sqlOf(db), dumps[name]?.manifest as DatabaseDump["manifest"])).toMatch(/lacks migrations/);
      await applyD1Migrations(db, env.TEST_MIGRATIONS);
      await restoreDatabase(sqlOf(db), dumps[name] as DatabaseDump, { batch: 200 });
    }
    // Nor are the vectors: the restored deployment starts without them.
    for (const tenantId of [users.boss.tenantId, users.otherBoss.tenantId]) {
      const { results } = await restored.SHARD_1.prepare("SELECT id FROM chunks WHERE tenant_id = ?1")
        .bind(tenantId)
        .all<{ id: string }>();
      const { results: other } = await restored.SHARD_2.prepare("SELECT id FROM chunks WHERE tenant_id = ?1")
        .bind(tenantId)
        .all<{ id: string }>();
      await testServices().search.backends.vectorIndex.delete(
        tenantId,
        [...results, ...other].map((r) => r.id),
      );
    }
    forgetKeywordTables();

    const bindings = { ...env, ...restored } as Env;
    const fetcher = fetcherOf(bindings);
    const unindexed = await fetcher(`${BASE}/api/v1/knowledge-search`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys.staff}`, "Content-Type": "application/json" },
      body: JSON.stringify({ question: "计件工资怎么算", search_mode: "hybrid", top_k: 8, min_score: 0 }),
    });
    expect(((await unindexed.json()) as { results: unknown[] }).results).toEqual([]);
    const workshops = (await restored.DB.prepare("SELECT id FROM tenants ORDER BY id").all<{ id: string }>()).results;
    for (const { id } of workshops) {
      let after: number | null = null;
      do {
        const res = await fetcher(`${BASE}/api/admin/workshops/${id}/reindex`, {
          method: "POST",
          headers: { Authorization: `Bearer ${OPERATOR}`, "Content-Type": "application/json", Origin: ORIGIN },
          body: JSON.stringify({ after }),
        });
        expect(res.status).toBe(200);
        after = ((await res.json()) as { after: number | null }).after;
      } while (after !== null);
    }
    expect(await observe(fetcher, cookie, "backup-chat")).toEqual(before);
    // A database that already holds rows is refused, and nothing is written to it.
    const refusal = await restoreRefusal(sqlOf(restored.DB), dumps.DB?.manifest as DatabaseDump["manifest"]);
    expect(refusal).toMatch(/is not empty/);
    await expect(restoreDatabase(sqlOf(restored.DB), dumps.DB as DatabaseDump)).rejects.toThrow(/cannot take the backup/);
  }, 60_000);

  it("carries long values across statements D1 would not refuse for their size", async () => {
    const db = env.SHARD_1;
    const long = "长".repeat(70_000);
    await db.prepare("UPDATE tenants SET name = ?1 WHERE id = ?2").bind(long, users.boss.tenantId).run();
    const dump = await dumpDatabase(sqlOf(db));
    expect(Math.max(...dump.statements.map((s) => new TextEncoder().encode(s).length))).toBeLessThan(100_000);
    const empty = env.MIGRATION_TEST_DB;
    await applyD1Migrations(empty, env.TEST_MIGRATIONS);
    await restoreDatabase(sqlOf(empty), dump);
    const row = await empty.prepare("SELECT name FROM tenants WHERE id = ?1").bind(users.boss.tenantId).first<{ name: string }>();
    expect(row?.name).toBe(long);
  });
});
