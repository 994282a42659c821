// The cost of one /mcp request: Weft's answers beside three floors started in the same run on the
// same machine: a hello-world Worker, the bare MCP Worker of the 2025 endpoint (SDK v1 transport,
// one echo tool) and a bare `agents` createMcpHandler Worker (SDK v2, one echo tool), the floor
// Weft's figures are given as ratios to. Weft is asked as a 2026-07-28 client asks, except `ping`,
// which only 2025-era clients send.
import { startFixtureWorker } from "./fixture-server.ts";
import { callTool, rpc, rpcRequest } from "./mcp-client.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-staff-key";
const FLOOR = "bare createMcpHandler Worker (echo, 2026-07-28)";
const modern = { modern: true };

async function post(url: string, request: { headers: Record<string, string>; body: string }): Promise<void> {
  const res = await fetch(url, { method: "POST", ...request });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  await res.arrayBuffer();
}

export async function benchMcp(baseUrl: string): Promise<void> {
  const hello = await startFixtureWorker("scripts/bench/fixtures/hello-worker.ts");
  const bareV1 = await startFixtureWorker("scripts/bench/fixtures/bare-mcp-worker.ts");
  const bareAgents = await startFixtureWorker("scripts/bench/fixtures/bare-agents-worker.ts");
  const echo = { name: "echo", arguments: { text: "hi" } };
  const rows: Figures[] = [];
  try {
    for (let round = 1; round <= 2; round++) {
      for (const clients of [1, 8]) {
        const options = { clients, perClient: clients === 1 ? 300 : 80, warmup: 20 };
        const suffix = ` [round ${round}]`;
        const cases: [string, () => Promise<unknown>][] = [
          ["hello-world Worker", async () => (await fetch(hello.baseUrl)).arrayBuffer()],
          ["bare SDK v1 Worker (echo, 2025)", () => post(`${bareV1.baseUrl}/`, rpcRequest("tools/call", echo))],
          [FLOOR, () => post(`${bareAgents.baseUrl}/`, rpcRequest("tools/call", echo, modern))],
          ["weft server/discover", () => rpc(baseUrl, KEY, "server/discover", {}, modern)],
          ["weft ping (2025)", () => rpc(baseUrl, KEY, "ping")],
          ["weft tools/list", () => rpc(baseUrl, KEY, "tools/list", {}, modern)],
          ["weft list_knowledge_bases", () => callTool(baseUrl, KEY, "list_knowledge_bases", {}, modern)],
          ["weft knowledge_search", () => callTool(baseUrl, KEY, "knowledge_search", { query: "怎么录入计件" }, modern)],
        ];
        for (const [name, send] of cases) {
          rows.push(await measure(`${name}${suffix}`, options, async () => () => send().then(() => undefined)));
        }
      }
    }
  } finally {
    await hello.stop();
    await bareV1.stop();
    await bareAgents.stop();
  }
  printTable(
    "MCP request cost on wrangler dev (local, one machine, 2 cores); ratios against the bare createMcpHandler Worker",
    rows,
    (row) => rows.find((r) => r.name === `${FLOOR}${row.name.slice(row.name.indexOf(" ["))}` && r.clients === row.clients),
  );
}
