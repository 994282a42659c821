// The cost of one /mcp request: Weft's ping, tools/list and two tools beside two floors started in
// the same run on the same machine: a hello-world Worker and a bare MCP Worker (same SDK and
// transport, one echo tool). Weft's figures are given as ratios to the bare MCP Worker.
import { startFixtureWorker } from "./fixture-server.ts";
import { callTool, rpc } from "./mcp-client.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-staff-key";
const BARE = "bare MCP Worker (echo)";

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  await res.arrayBuffer();
}

export async function benchMcp(baseUrl: string): Promise<void> {
  const hello = await startFixtureWorker("scripts/bench/fixtures/hello-worker.ts");
  const bare = await startFixtureWorker("scripts/bench/fixtures/bare-mcp-worker.ts");
  const rows: Figures[] = [];
  try {
    for (let round = 1; round <= 2; round++) {
      for (const clients of [1, 8]) {
        const options = { clients, perClient: clients === 1 ? 300 : 80, warmup: 20 };
        const suffix = ` [round ${round}]`;
        rows.push(
          await measure(`hello-world Worker${suffix}`, options, async () => async () => {
            await (await fetch(hello.baseUrl)).arrayBuffer();
          }),
        );
        rows.push(
          await measure(
            `${BARE}${suffix}`,
            options,
            async () => (i) =>
              post(`${bare.baseUrl}/`, {
                jsonrpc: "2.0",
                id: i + 1,
                method: "tools/call",
                params: { name: "echo", arguments: { text: "hi" } },
              }),
          ),
        );
        rows.push(
          await measure(`weft ping${suffix}`, options, async () => () => rpc(baseUrl, KEY, "ping").then(() => undefined)),
        );
        rows.push(
          await measure(
            `weft tools/list${suffix}`,
            options,
            async () => () => rpc(baseUrl, KEY, "tools/list").then(() => undefined),
          ),
        );
        rows.push(
          await measure(
            `weft list_knowledge_bases${suffix}`,
            options,
            async () => () => callTool(baseUrl, KEY, "list_knowledge_bases", {}).then(() => undefined),
          ),
        );
        rows.push(
          await measure(
            `weft knowledge_search${suffix}`,
            options,
            async () => () => callTool(baseUrl, KEY, "knowledge_search", { query: "怎么录入计件" }).then(() => undefined),
          ),
        );
      }
    }
  } finally {
    await hello.stop();
    await bare.stop();
  }
  printTable("MCP request cost on wrangler dev (local, one machine, 2 cores); ratios against the bare MCP Worker", rows, (row) =>
    rows.find((r) => r.name === `${BARE}${row.name.slice(row.name.indexOf(" ["))}` && r.clients === row.clients),
  );
}
