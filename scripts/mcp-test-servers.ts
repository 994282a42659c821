// MCP servers the federation tests and the benchmark start on 127.0.0.1: the reference "everything"
// server as a child process, and a small SDK server of our own with the awkward cases.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface Started {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `@modelcontextprotocol/server-everything` in `streamableHttp` (at /mcp) or `sse` (at /sse) mode. */
export async function startEverything(mode: "streamableHttp" | "sse"): Promise<Started> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", mode],
    { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`everything (${mode}) did not start:\n${output}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`everything (${mode}) exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

const TREE_SCHEMA = {
  type: "object",
  $defs: {
    Node: {
      type: "object",
      description: "a node",
      properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    },
  },
  properties: { root: { $ref: "#/$defs/Node" } },
  required: ["root"],
};

function awkwardServer(seen: Headers[]): Server {
  const server = new Server({ name: "awkward", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "tree", description: "Counts the nodes of a tree.", inputSchema: TREE_SCHEMA, annotations: { readOnlyHint: true } },
      { name: "hang", description: "Never answers.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      { name: "huge", description: "Answers 10 MB.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      {
        name: "whoami",
        description: "Says which API key it got.",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    if (name === "hang") return new Promise(() => {});
    if (name === "huge") return { content: [{ type: "text", text: "x".repeat(10 * 1024 * 1024) }] };
    if (name === "whoami")
      return { content: [{ type: "text", text: `key of length ${seen.at(-1)?.get("x-api-key")?.length ?? 0}` }] };
    const count = (node: { children?: unknown[] }): number =>
      1 + (node.children ?? []).reduce<number>((n, child) => n + count(child as { children?: unknown[] }), 0);
    return { content: [{ type: "text", text: `nodes: ${count(request.params.arguments?.root as { children?: unknown[] })}` }] };
  });
  return server;
}

/**
 * Our own SDK server (stateless, JSON answers) at /mcp with a recursive schema, a tool that hangs,
 * one that answers 10 MB and one that reports the key it received; /redirect sends a client to a
 * private address. `seen` collects the request headers it got.
 */
export async function startAwkwardServer(): Promise<Started & { seen: Headers[] }> {
  const seen: Headers[] = [];
  const http: HttpServer = createServer(async (req, res) => {
    if (req.url?.startsWith("/redirect")) {
      res.writeHead(307, { Location: "http://169.254.169.254/latest/meta-data/" }).end();
      return;
    }
    seen.push(
      new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : []))),
    );
    const server = awkwardServer(seen);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A port nothing listens on, for a server that is down. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/mcp`;
}
