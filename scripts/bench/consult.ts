// navigate_session through /mcp on `npm run dev`, beside two baselines from the same server and run:
// an MCP `ping` (auth + a fresh MCP server, no tool) and `list_knowledge_bases` (a trivial read tool).
import { callTool, rpc } from "./mcp-client.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-staff-key";

export async function benchConsult(baseUrl: string): Promise<void> {
  const rows: Figures[] = [];
  for (const clients of [1, 16]) {
    const perClient = clients === 1 ? 300 : 60;
    rows.push(
      await measure("ping (baseline)", { clients, perClient }, async () => () => rpc(baseUrl, KEY, "ping").then(() => undefined)),
    );
    rows.push(
      await measure(
        "list_knowledge_bases",
        { clients, perClient },
        async () => () => callTool(baseUrl, KEY, "list_knowledge_bases", {}).then(() => undefined),
      ),
    );
    rows.push(
      await measure("navigate_session", { clients, perClient }, async () => {
        const { session_id } = await callTool<{ session_id: string }>(baseUrl, KEY, "initiate_session", {
          user_query: "质量问题",
        });
        // Down one step and back again: every call is a real move with a storage write.
        return (i) =>
          callTool(baseUrl, KEY, "navigate_session", { session_id, selected_option_id: i % 2 === 0 ? "break" : "back" }).then(
            () => undefined,
          );
      }),
    );
  }
  printTable("Consultations: navigate_session through /mcp on wrangler dev (local, one machine, 2 cores)", rows, (row) =>
    rows.find((r) => r.name === "ping (baseline)" && r.clients === row.clients),
  );
}
