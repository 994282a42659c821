// Proxy overhead: the reference "everything" server's `echo` called directly from Node with the MCP
// SDK client and through Weft (the REST proxy and /mcp), against the same server in the same run.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startEverything } from "../mcp-test-servers.ts";
import { postJson } from "./http.ts";
import { callTool } from "./mcp-client.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-boss-key";

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "weft-bench", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

export async function benchFederation(baseUrl: string): Promise<void> {
  const everything = await startEverything("streamableHttp");
  try {
    const name = `bench${Date.now().toString(36)}`;
    const { id } = await postJson<{ id: string }>(baseUrl, KEY, "/api/mcp/servers", {
      name,
      url: everything.url,
      expose_on_mcp: true,
    });
    const rows: Figures[] = [];
    for (const clients of [1, 8]) {
      const perClient = clients === 1 ? 200 : 40;
      rows.push(
        await measure("direct, one session (baseline)", { clients, perClient }, async () => {
          const { client } = await connect(everything.url);
          return (i) => client.callTool({ name: "echo", arguments: { message: `m${i}` } }).then(() => undefined);
        }),
      );
      rows.push(
        await measure("direct, new connection per call", { clients, perClient }, async () => async (i) => {
          // A client that keeps no session (as Weft did before it kept them): connect, call, end the session, close.
          const { client, transport } = await connect(everything.url);
          await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
          await transport.terminateSession();
          await client.close();
        }),
      );
      rows.push(
        await measure(
          "Weft REST proxy",
          { clients, perClient },
          async () => (i) =>
            postJson(baseUrl, KEY, `/api/mcp/proxy/${id}/tools/echo/call`, { message: `m${i}` }).then(() => undefined),
        ),
      );
      rows.push(
        await measure(
          "Weft /mcp, re-exposed tool",
          { clients, perClient },
          async () => (i) => callTool(baseUrl, KEY, `mcp_${name}_echo`, { message: `m${i}` }).then(() => undefined),
        ),
      );
    }
    printTable("Federation: everything server's echo, direct vs through Weft (wrangler dev, one machine, 2 cores)", rows, (row) =>
      rows.find((r) => r.name === "direct, one session (baseline)" && r.clients === row.clients),
    );
  } finally {
    await everything.stop();
  }
}
