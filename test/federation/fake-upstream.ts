import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { vi } from "vitest";
import { z } from "zod";

export const UPSTREAM = "https://tools.example.com/mcp";
export const DOWN = "https://down.example.com/mcp";
export const REDIRECTING = "https://redirect.example.com/mcp";
export const CHANGING = "https://changing.example.com/mcp";
export const SESSIONS = "https://sessions.example.com/mcp";
/** The fake server with one more tool, `quota`, whose every call is answered with JSON-RPC error -32001 at once. */
export const RPC_ERRORS = "https://rpc-errors.example.com/mcp";

/** Requests the fake servers received, for assertions on what Weft sent. */
export const received: Request[] = [];
/** The names of the tools called on the fake server, in order (plain strings: readable from any context). */
export const calledTools: string[] = [];
/** The JSON-RPC methods the fake server received, in order. */
export const receivedMethods: string[] = [];

const TREE_SCHEMA = {
  type: "object",
  $defs: {
    Node: {
      type: "object",
      properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    },
  },
  properties: { root: { $ref: "#/$defs/Node", description: "the tree" } },
  required: ["root"],
};

/** A real SDK MCP server, built per request (stateless, JSON answers), with the tools the tests need. */
function upstreamServer(): McpServer {
  const server = new McpServer({ name: "fake-upstream", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Echoes a message.",
      inputSchema: { message: z.string().describe("what to echo") },
      annotations: { readOnlyHint: true },
    },
    async ({ message }) => ({ content: [{ type: "text", text: `echo: ${message}` }] }),
  );
  server.registerTool(
    "add_note",
    {
      description: "Adds a note.",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async ({ text }) => ({ content: [{ type: "text", text: "saved" }], structuredContent: { saved: text } }),
  );
  server.registerTool(
    "fail",
    { description: "Always fails.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async () => ({ isError: true, content: [{ type: "text", text: "the database is on fire" }] }),
  );
  server.registerTool(
    "whoami",
    { description: "Repeats the credential it received.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => {
      const auth = String(extra.requestInfo?.headers.authorization ?? "none");
      return { content: [{ type: "text", text: `you sent ${auth}` }], structuredContent: { auth } };
    },
  );
  server.registerTool(
    "leaky_fail",
    { description: "Fails, quoting the credential.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => ({
      isError: true,
      content: [{ type: "text", text: `bad key ${String(extra.requestInfo?.headers.authorization ?? "")}` }],
    }),
  );
  server.registerTool(
    "hang",
    { description: "Never answers.", inputSchema: {}, annotations: { readOnlyHint: true } },
    () => new Promise(() => {}),
  );
  server.registerTool(
    "huge",
    { description: "Answers 10 MB.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: "text", text: "x".repeat(10 * 1024 * 1024) }] }),
  );
  return server;
}

const QUOTA_TOOL = {
  name: "quota",
  description: "Refused: over quota.",
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
};

async function answer(request: Request, { rpcErrors = false } = {}): Promise<Response> {
  const server = upstreamServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const body = request.method === "POST" ? await request.clone().json() : undefined;
  const call = body as { id?: number; method?: string; params?: { name?: string } } | undefined;
  if (call?.method === "tools/call" && call.params?.name) calledTools.push(call.params.name);
  if (call?.method) receivedMethods.push(call.method);
  if (rpcErrors && call?.method === "tools/call" && call.params?.name === "quota") {
    // -32001 is in JSON-RPC's range for servers' own errors, and also the SDK's code for its timeout.
    return Response.json({ jsonrpc: "2.0", id: call.id, error: { code: -32001, message: "Daily quota exceeded" } });
  }
  const response = await transport.handleRequest(request, { parsedBody: body });
  if (call?.method === "tools/list") {
    // A tool whose schema has $defs and a cycle, as raw JSON Schema (McpServer only registers zod).
    const listed = (await response.json()) as { result: { tools: unknown[] } };
    listed.result.tools.push({
      name: "tree",
      description: "Takes a tree.",
      inputSchema: TREE_SCHEMA,
      annotations: { readOnlyHint: true },
    });
    if (rpcErrors) listed.result.tools.push(QUOTA_TOOL);
    return Response.json(listed);
  }
  return response;
}

/** The sessions the stateful fake server holds open: a good client ends each one it starts. */
export const openSessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

/** What the stateful server saw, one entry a request, in plain strings (readable from any context). */
export interface SessionRequest {
  method: string;
  rpc: string | null;
  sessionId: string | null;
  status: number;
}

/**
 * The stateful server's knobs and records: every request it received, every session id it gave,
 * the most requests it ever had in flight within one session, and how it answers a session id it
 * does not hold (404 as the spec says, or 400 as the SDK's example servers do).
 */
export const sessionServer = {
  requests: [] as SessionRequest[],
  issued: [] as string[],
  mostInFlight: 0,
  unknownSessionStatus: 404 as 404 | 400,
  /** The id the next session gets: a UUID, unless a test makes the server give odd ones. */
  newSessionId: (): string => crypto.randomUUID(),
};
const inFlight = new Map<string, number>();

/** A stateful server, as many real ones are: it keeps a session per `initialize` until told to end it. */
async function answerWithSession(request: Request): Promise<Response> {
  const id = request.headers.get("mcp-session-id");
  const body = request.method === "POST" ? ((await request.clone().json()) as { method?: string }) : undefined;
  // Recorded on arrival (status 0 until answered): a request that never gets an answer counts too.
  const seen: SessionRequest = { method: request.method, rpc: body?.method ?? null, sessionId: id, status: 0 };
  sessionServer.requests.push(seen);
  const response = await sessionAnswer(request, id);
  seen.status = response.status;
  const given = response.headers.get("mcp-session-id");
  if (given && !sessionServer.issued.includes(given)) sessionServer.issued.push(given);
  return response;
}

async function sessionAnswer(request: Request, id: string | null): Promise<Response> {
  const known = id ? openSessions.get(id) : undefined;
  if (id && !known) {
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
      { status: sessionServer.unknownSessionStatus },
    );
  }
  if (id && known) {
    const count = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, count);
    sessionServer.mostInFlight = Math.max(sessionServer.mostInFlight, count);
    try {
      return await known.handleRequest(request);
    } finally {
      inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
    }
  }
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionServer.newSessionId(),
    enableJsonResponse: true,
    onsessioninitialized: (sessionId) => {
      openSessions.set(sessionId, transport);
    },
    onsessionclosed: (sessionId) => {
      openSessions.delete(sessionId);
    },
  });
  const server = upstreamServer();
  server.registerTool(
    "slow_echo",
    { description: "Echoes a message after 200 ms.", inputSchema: { message: z.string() }, annotations: { readOnlyHint: true } },
    async ({ message }) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { content: [{ type: "text", text: `slow echo: ${message}` }] };
    },
  );
  server.registerTool(
    "my_session",
    { description: "Says which session it runs in.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => ({ content: [{ type: "text", text: `session ${extra.sessionId ?? "none"}` }] }),
  );
  server.registerTool(
    "session_fail",
    { description: "Fails, naming its session.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => ({ isError: true, content: [{ type: "text", text: `session ${extra.sessionId} is broken` }] }),
  );
  await server.connect(transport);
  return transport.handleRequest(request);
}

/** A server that answers in SSE mode and says, during a call, that its tools changed. */
async function answerChanging(request: Request): Promise<Response> {
  const server = new McpServer({ name: "changing", version: "1.0.0" });
  server.registerTool(
    "rotate",
    { description: "Changes the server's tools.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => {
      await extra.sendNotification({ method: "notifications/tools/list_changed" });
      return { content: [{ type: "text", text: "rotated" }] };
    },
  );
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: request.method === "POST" ? await request.json() : undefined });
}

/** Replaces the network with the fake servers (and `more`, tried first) for the calling test file. */
export function installFakeNetwork(more?: (request: Request) => Promise<Response> | undefined): void {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const answered = more?.(request);
    if (answered) return answered;
    if (url.origin === "https://tools.example.com") {
      received.push(request.clone());
      // As the network does: an aborted request stops waiting, even for a server that never answers.
      return Promise.race([
        answer(request),
        new Promise<never>((_resolve, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason))),
      ]);
    }
    if (url.origin === "https://rpc-errors.example.com") return answer(request, { rpcErrors: true });
    if (url.origin === "https://changing.example.com") return answerChanging(request);
    if (url.origin === "https://sessions.example.com") return answerWithSession(request);
    if (url.origin === "https://down.example.com") throw new TypeError("connection refused");
    if (url.origin === "https://redirect.example.com")
      return new Response(null, { status: 307, headers: { Location: "https://169.254.169.254/latest/meta-data" } });
    return real(input, init);
  });
}
