// npm run bench -- tenants: many workshops on the shards. Creates 1,000 workshops (half on each
// local shard), each with a boss, two documents (uploaded through the API, so chunked, indexed and
// embedded as any upload) and a month of piece records; then drives the same mixed traffic
// (knowledge search, a business query, a prepare and its confirm) from 10 workshops and from all
// 1,000, and reports each operation's p50/p95 side by side; then writes per second to two shards
// against the same writers on one. Every response is checked to be its own workshop's. Last, the
// first request of a workshop after a start, on a server of 10 workshops and on the 1,000
// (first-requests.ts). It starts servers of its own, so it runs alone.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer } from "../dev-server.ts";
import { executeSql, ROOT } from "../lib.ts";
import { firstRequests } from "./first-requests.ts";
import { callTool } from "./mcp-client.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const WORKSHOPS = Number(process.env.BENCH_WORKSHOPS ?? 1000);
const SHARDS = ["SHARD_1", "SHARD_2"];

interface BenchWorkshop {
  id: string;
  key: string;
  shard: string;
  /** A word only this workshop's documents hold, so a search answer can be checked to be its own. */
  marker: string;
}

const q = (value: string) => `'${value.replaceAll("'", "''")}'`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function workshopsToMake(): BenchWorkshop[] {
  return Array.from({ length: WORKSHOPS }, (_, i) => ({
    id: `t-bench-${i}`,
    key: `bench-key-${i}`,
    shard: SHARDS[i % SHARDS.length] as string,
    marker: `标记${i.toString(36)}号`,
  }));
}

/** Directory rows (workshop, boss, an API key that may confirm) and each shard's business rows. */
function seedStatements(workshops: BenchWorkshop[]): { directory: string[]; shards: Map<string, string[]> } {
  const directory: string[] = [];
  const shards = new Map<string, string[]>(SHARDS.map((s) => [s, []]));
  const month = new Date().toISOString().slice(0, 7);
  for (const w of workshops) {
    directory.push(
      `INSERT OR IGNORE INTO tenants (id, name, shard) VALUES (${q(w.id)}, ${q(`压测车间${w.id.slice(8)}`)}, ${q(w.shard)});`,
      `INSERT OR IGNORE INTO users (id, tenant_id, name, role) VALUES (${q(`u-${w.id}`)}, ${q(w.id)}, '老板', 'boss');`,
      // A key in use, as in a deployment whose workshops work: its first use since making it would
      // record it (`last_used_at`), which a key in use does every 10 minutes, not on every request.
      `INSERT OR IGNORE INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash, confirm_by, last_used_at) VALUES (${q(`k-${w.id}`)}, ${q(w.id)}, ${q(`u-${w.id}`)}, 'bench', 'bench-', ${q(sha256(w.key))}, 'agent', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));`,
    );
    const rows = shards.get(w.shard) as string[];
    rows.push(
      `INSERT OR IGNORE INTO tenants (id, name) VALUES (${q(w.id)}, ${q(`压测车间${w.id.slice(8)}`)});`,
      `INSERT OR IGNORE INTO styles (id, tenant_id, code, name) VALUES (${q(`s-${w.id}`)}, ${q(w.id)}, 'A01', '衬衫');`,
      `INSERT OR IGNORE INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, status) VALUES (${q(`o-${w.id}`)}, ${q(w.id)}, '2026-001', '客户', ${q(`s-${w.id}`)}, 100000, '2099-12-31', 'in_production');`,
    );
    for (const [p, name] of ["上领子", "上袖子", "锁边"].entries()) {
      rows.push(
        `INSERT OR IGNORE INTO processes (id, tenant_id, style_id, name, unit_price_cents, sort_order) VALUES (${q(`p${p}-${w.id}`)}, ${q(w.id)}, ${q(`s-${w.id}`)}, ${q(name)}, ${60 + p * 10}, ${p});`,
      );
    }
    const values: string[] = [];
    for (const [e, name] of ["张三", "李四", "王五", "赵六", "钱七"].entries()) {
      rows.push(
        `INSERT OR IGNORE INTO employees (id, tenant_id, name, employee_no) VALUES (${q(`e${e}-${w.id}`)}, ${q(w.id)}, ${q(name)}, ${q(`00${e}`)});`,
      );
      for (let day = 1; day <= 25; day++) {
        const date = `${month}-${String(day).padStart(2, "0")}`;
        values.push(
          `(${q(`pr-${w.id}-${e}-${day}`)}, ${q(w.id)}, ${q(`e${e}-${w.id}`)}, ${q(`p${day % 3}-${w.id}`)}, ${q(`o-${w.id}`)}, ${20 + ((e * 7 + day) % 50)}, ${60 + (day % 3) * 10}, ${q(date)}, 'bench')`,
        );
      }
    }
    rows.push(
      `INSERT OR IGNORE INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date, entered_by) VALUES ${values.join(", ")};`,
    );
  }
  return { directory, shards };
}

async function upload(baseUrl: string, w: BenchWorkshop): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${w.key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const kb = (await (await post("/api/knowledge-bases", { name: "车间手册" })).json()) as { id?: string };
  if (!kb.id) throw new Error(`no knowledge base for ${w.id}`);
  const docs = [
    {
      filename: "规定.md",
      content: `# 车间规定\n\n${w.marker}：上班前检查缝纫机的针和线。\n\n## 计件\n\n员工每天下班前登记当天的计件数量，老板每周核对一次。`,
    },
    { filename: "保养.md", content: `# 设备保养\n\n${w.marker}的梭床每周五清理一次，加油前先断电。` },
  ];
  for (const doc of docs) {
    const res = await post(`/api/knowledge-bases/${kb.id}/documents`, doc);
    if (res.status !== 201) throw new Error(`upload for ${w.id}: ${res.status} ${await res.text()}`);
  }
}

/** Runs `work` over `items` with `concurrency` at once. */
async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** The mixed operations a workshop's people and agents make, each checked to answer for its own workshop. */
function operations(baseUrl: string) {
  return {
    knowledge_search: async (w: BenchWorkshop) => {
      const found = await callTool<{ results: { content: string }[] }>(baseUrl, w.key, "knowledge_search", {
        query: "梭床什么时候清理",
        top_k: 3,
        min_score: 0,
      });
      const text = JSON.stringify(found);
      if (!text.includes(w.marker) || /标记[0-9a-z]+号/g.exec(text)?.[0] !== w.marker) {
        throw new Error(`knowledge_search for ${w.id} answered with another workshop's text: ${text.slice(0, 600)}`);
      }
    },
    // The same search by keywords alone: no vector index (locally a Durable Object a workshop).
    knowledge_search_keyword: async (w: BenchWorkshop) => {
      const found = await callTool<{ results: { content: string }[] }>(baseUrl, w.key, "knowledge_search", {
        query: "梭床什么时候清理",
        top_k: 3,
        min_score: 0,
        search_mode: "keyword",
        rerank: false,
      });
      if (!JSON.stringify(found).includes(w.marker)) throw new Error(`keyword search for ${w.id} missed its own text`);
    },
    query_piece_records: async (w: BenchWorkshop) => {
      const found = await callTool<Record<string, unknown>>(baseUrl, w.key, "query_piece_records", {
        employee: "张三",
        limit: 5,
      });
      if (!JSON.stringify(found).includes(`e0-${w.id}`)) throw new Error(`query_piece_records for ${w.id} answered another's`);
    },
    prepare_and_confirm: async (w: BenchWorkshop) => {
      const prepared = await callTool<{ action_id?: string }>(baseUrl, w.key, "prepare_piece_record", {
        employee: "张三",
        process: "锁边",
        quantity: 1,
      });
      if (!prepared.action_id) throw new Error(`no action for ${w.id}: ${JSON.stringify(prepared)}`);
      const confirmed = await callTool<Record<string, unknown>>(baseUrl, w.key, "confirm_action", {
        action_id: prepared.action_id,
      });
      if (!JSON.stringify(confirmed).includes("confirmed")) throw new Error(`confirm for ${w.id}: ${JSON.stringify(confirmed)}`);
    },
  };
}

/**
 * The bytes of every local D1 database's files (directory and shards, write-ahead logs included),
 * read from disk: asking the server would open the shards' files, and a server that has them open
 * does not survive the large write the seeding makes to them from another process.
 */
function databaseFileBytes(stateDir: string): number {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  return readdirSync(dir)
    .filter((name) => /\.sqlite(-wal)?$/.test(name) && !name.startsWith("metadata."))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** Each shard's size in bytes, as the operator's API reports it. */
async function shardBytes(baseUrl: string): Promise<Record<string, number>> {
  const res = await fetch(`${baseUrl}/api/admin/shards`, { headers: { Authorization: "Bearer dev-operator-key" } });
  const { shards } = (await res.json()) as { shards: { name: string; bytes: number }[] };
  return Object.fromEntries(shards.map((s) => [s.name, s.bytes]));
}

/** Makes `workshops` on the server on `stateDir`: their rows, then their documents through the API. */
async function makeWorkshops(baseUrl: string, stateDir: string, workshops: BenchWorkshop[]): Promise<void> {
  const local = ["--local", "--persist-to", stateDir];
  const seed = seedStatements(workshops);
  mkdirSync(join(ROOT, ".wrangler", "tmp"), { recursive: true });
  executeSql("bench-tenants-directory", seed.directory, local);
  for (const [shard, statements] of seed.shards) executeSql(`bench-tenants-${shard}`, statements, local, shard);
  await pool(workshops, 8, (w) => upload(baseUrl, w));
}

export async function benchTenants(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), "weft-bench-tenants-"));
  const smallDir = mkdtempSync(join(tmpdir(), "weft-bench-tenants-10-"));
  try {
    const workshops = workshopsToMake();
    const server = await startDevServer({ stateDir });
    try {
      console.log(`Benchmarking ${server.baseUrl} (Node ${process.version}, ${new Date().toISOString()})`);
      await mixedTraffic(server.baseUrl, stateDir, workshops);
    } finally {
      await server.stop();
    }
    const few = workshops.slice(0, 10);
    const small = await startDevServer({ stateDir: smallDir });
    try {
      await makeWorkshops(small.baseUrl, smallDir, few);
    } finally {
      await small.stop();
    }
    const ops = (baseUrl: string) => {
      const all = operations(baseUrl);
      return { "knowledge_search (hybrid)": all.knowledge_search, "prepare + confirm": all.prepare_and_confirm };
    };
    const rows = [
      ...(await firstRequests(smallDir, few, "10 workshops", ops, { rounds: 4, perRound: 5 })),
      ...(await firstRequests(stateDir, workshops, `${workshops.length} workshops`, ops, { rounds: 1, perRound: 40 })),
    ];
    printTable(
      "A workshop's first and second request after the server starts, on a server of 10 workshops and of all of them (one client)",
      rows,
      (row) =>
        row.name.endsWith(`${workshops.length} workshops`)
          ? rows.find((r) => r.name === row.name.replace(/, \d+ workshops$/, ", 10 workshops"))
          : undefined,
    );
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(smallDir, { recursive: true, force: true });
  }
}

/** The 1,000 workshops made, their bytes, the mixed traffic against 10, and the writes per shard. */
async function mixedTraffic(baseUrl: string, stateDir: string, workshops: BenchWorkshop[]): Promise<void> {
  const bytesBefore = databaseFileBytes(stateDir);
  const started = performance.now();
  await makeWorkshops(baseUrl, stateDir, workshops);
  console.log(
    `\n${workshops.length} workshops on ${SHARDS.join(" and ")}, each with 2 documents and ${5 * 25} piece records, made in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const sizeAfter = await shardBytes(baseUrl);
  const grown = databaseFileBytes(stateDir) - bytesBefore;
  console.log(
    `The databases' files grew by ${(grown / 1024 / 1024).toFixed(1)} MiB: ${(grown / workshops.length / 1024).toFixed(1)} KiB a workshop (the operator's API: ${SHARDS.map((s) => `${s} ${((sizeAfter[s] ?? 0) / 1024 / 1024).toFixed(1)} MiB`).join(", ")})`,
  );

  const ops = operations(baseUrl);
  const rows: Figures[] = [];
  const few = workshops.slice(0, 10);
  // Each operation runs twice in a row. The first time, each of the 1,000 workshops meets it for
  // the first time since the server started (its key, scope, vectors, rows and pending-action
  // object read or started afresh), where each of the 10 has met it 32 times; again, each has been
  // served by it seconds before, as the workshops of a server that has run a while and whose
  // people work (a key read from the directory is trusted 30 s).
  const runs = Object.entries(ops).flatMap(([name, op]): [string, (w: BenchWorkshop) => Promise<void>][] => [
    [name, op],
    [`${name} again`, op],
  ]);
  for (const [name, op] of runs) {
    for (const [label, set] of [
      ["10 workshops", few],
      [`${workshops.length} workshops`, workshops],
    ] as const) {
      rows.push(
        await measure(`${name}, ${label}`, { clients: 8, perClient: 40, warmup: 2 }, async (client) => {
          return (i) => op(set[(client * 131 + i * 17) % set.length] as BenchWorkshop);
        }),
      );
    }
  }
  printTable("Mixed traffic: the same operations from 10 workshops and from all of them (8 clients)", rows, (row) =>
    row.name.endsWith(`${workshops.length} workshops`)
      ? rows.find((r) => r.name === row.name.replace(/, \d+ workshops$/, ", 10 workshops"))
      : undefined,
  );

  // Writes per second: the same 16 writers, spread over both shards, then all on one.
  const onOne = workshops.filter((w) => w.shard === SHARDS[0]).slice(0, 16);
  const spread = workshops.slice(0, 16);
  const writes: Figures[] = [];
  for (const [label, set] of [
    ["prepare + confirm, writers on one shard", onOne],
    ["prepare + confirm, writers on two shards", spread],
  ] as const) {
    writes.push(
      await measure(label, { clients: 16, perClient: 15, warmup: 1 }, async (client) => {
        const w = set[client % set.length] as BenchWorkshop;
        return () => ops.prepare_and_confirm(w);
      }),
    );
  }
  printTable("Writes: the same 16 writers on one shard and spread over two", writes, (row) =>
    row === writes[1] ? writes[0] : undefined,
  );
}
