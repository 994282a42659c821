// Business tools through /mcp on `npm run dev` with one workshop (锦绣制衣, on SHARD_1) grown to 100k piece
// records, beside two baselines from the same server and run: an MCP `ping` and
// `list_knowledge_bases` (a trivial read tool).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callTool, rpc } from "./mcp-client.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-boss-key";
const ROOT = join(import.meta.dirname, "..", "..");
const TARGET = 100_000;

/** Adds piece records to 锦绣制衣 until it holds TARGET, spread over employees, processes and two years. */
function growPieceRecords(stateDir: string): void {
  const sql = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TARGET}),
  e AS (SELECT id, ROW_NUMBER() OVER (ORDER BY employee_no) - 1 AS k FROM employees WHERE tenant_id = 't-jinxiu' AND status = 'active'),
  p AS (SELECT id, unit_price_cents, ROW_NUMBER() OVER (ORDER BY sort_order) - 1 AS k FROM processes WHERE tenant_id = 't-jinxiu' AND style_id = 'st-jx-a01')
INSERT OR IGNORE INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date, entered_by)
SELECT 'bench-' || n.i, 't-jinxiu', e.id, p.id, CASE WHEN n.i % 2 = 0 THEN 'o-jx-1' ELSE 'o-jx-3' END,
       40 + n.i % 160, p.unit_price_cents, date('now', '-' || (n.i % 730) || ' days'), 'bench'
  FROM n JOIN e ON e.k = n.i % (SELECT COUNT(*) FROM e) JOIN p ON p.k = n.i % (SELECT COUNT(*) FROM p)
 WHERE n.i <= ${TARGET} - (SELECT COUNT(*) FROM piece_records WHERE tenant_id = 't-jinxiu');`;
  const dir = join(ROOT, ".wrangler", "tmp");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-business-${Date.now()}.sql`);
  writeFileSync(file, sql);
  const result = spawnSync(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "SHARD_1", "--local", "--persist-to", stateDir, "--file", file],
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      encoding: "utf8",
    },
  );
  if (result.status !== 0) throw new Error(`growing piece records failed:\n${result.stdout}${result.stderr}`);
}

export async function benchBusiness(baseUrl: string, stateDir: string): Promise<void> {
  const started = performance.now();
  const size = async () => {
    const res = await fetch(`${baseUrl}/api/admin/shards`, { headers: { Authorization: "Bearer dev-operator-key" } });
    const { shards } = (await res.json()) as { shards: { name: string; bytes: number }[] };
    return shards.find((s) => s.name === "SHARD_1")?.bytes ?? 0;
  };
  const before = await size();
  const { totals: had } = await callTool<{ totals: { records: number } }>(baseUrl, KEY, "query_piece_records", { limit: 1 });
  growPieceRecords(stateDir);
  const { totals } = await callTool<{ totals: { records: number } }>(baseUrl, KEY, "query_piece_records", { limit: 1 });
  console.log(`锦绣制衣 holds ${totals.records} piece records (grown in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const added = totals.records - had.records;
  if (added > 0)
    console.log(`SHARD_1 grew ${(((await size()) - before) / added).toFixed(0)} bytes a piece record (indexes included)`);
  const month = new Date().toISOString().slice(0, 7);
  const rows: Figures[] = [];
  for (const clients of [1, 8]) {
    const perClient = clients === 1 ? 150 : 30;
    const shape = { clients, perClient };
    rows.push(await measure("ping (baseline)", shape, async () => () => rpc(baseUrl, KEY, "ping").then(() => undefined)));
    rows.push(
      await measure(
        "list_knowledge_bases (trivial tool)",
        shape,
        async () => () => callTool(baseUrl, KEY, "list_knowledge_bases", {}).then(() => undefined),
      ),
    );
    rows.push(
      await measure(
        "query_piece_records, no filter",
        shape,
        async () => () => callTool(baseUrl, KEY, "query_piece_records", {}).then(() => undefined),
      ),
    );
    rows.push(
      await measure(
        "query_piece_records, employee + this month",
        shape,
        async () => () =>
          callTool(baseUrl, KEY, "query_piece_records", { employee: "张三", period: "this_month" }).then(() => undefined),
      ),
    );
    rows.push(
      await measure(
        "query_piece_records, process + order + month",
        shape,
        async () => () =>
          callTool(baseUrl, KEY, "query_piece_records", { process: "领子", order: "o-jx-1", month }).then(() => undefined),
      ),
    );
    rows.push(
      await measure("prepare_piece_record -> confirm_action", shape, async () => async () => {
        const action = await rpc(baseUrl, KEY, "tools/call", {
          name: "prepare_piece_record",
          arguments: { employee: "张三", process: "领子", quantity: 1, order: "o-jx-1" },
        });
        const { action_id } = action.structuredContent as { action_id: string };
        await callTool(baseUrl, KEY, "confirm_action", { action_id });
      }),
    );
  }
  printTable(
    `Business tools through /mcp on wrangler dev, one workshop at ${totals.records} piece records (local, one machine, 2 cores)`,
    rows,
    (row) => rows.find((r) => r.name === "list_knowledge_bases (trivial tool)" && r.clients === row.clients),
  );
}
