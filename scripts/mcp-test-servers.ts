// MCP servers the federation tests and the benchmark start on 127.0.0.1: the reference "everything"
// server as a child process, and a small SDK server of our own with the awkward cases.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
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

/** What the stateful server saw and lets a test change. */
export interface StatefulServer extends Started {
  /** Every request, as `POST tools/call` (the JSON-RPC method) or `DELETE`, with its answer's status. */
  requests: string[];
  /** Every session id it gave. */
  issued: string[];
  /** Drops every session, as a restart does: their ids are then answered 404. */
  forget(): void;
}

/**
 * An SDK server that keeps a session per `initialize` (JSON answers), as many real servers do,
 * with an `echo` tool and a `my_session` tool that names the session it runs in.
 */
export async function startStatefulServer(): Promise<StatefulServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: string[] = [];
  const issued: string[] = [];
  const http: HttpServer = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = text ? (JSON.parse(text) as { method?: string }) : undefined;
    res.on("finish", () => requests.push(`${req.method}${body?.method ? ` ${body.method}` : ""} ${res.statusCode}`));
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res, body);
    if (typeof id === "string") {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
        issued.push(sessionId);
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
      },
    });
    const server = new Server({ name: "stateful", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: "echo",
          description: "Echoes a message.",
          inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
          annotations: { readOnlyHint: true },
        },
        {
          name: "my_session",
          description: "Names the session it runs in.",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => ({
      content: [
        {
          type: "text",
          text:
            request.params.name === "echo" ? `echo: ${String(request.params.arguments?.message)}` : `session ${extra.sessionId}`,
        },
      ],
    }));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    issued,
    forget: () => sessions.clear(),
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

/** What the OAuth test server saw and lets a test change. */
export interface OAuthServer extends Started {
  /** Access tokens revoked through its revocation endpoint. */
  revoked: string[];
  /** Invalidates every access token, so the next call must refresh. */
  expireAccessTokens(): void;
  /** Invalidates every access and refresh token, as a provider does when a person signs out: a new sign-in is needed. */
  signOutEveryone(): void;
  /** How many refresh-token grants it answered. */
  refreshes(): number;
  /** Every access and refresh token it issued. */
  issued(): string[];
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * A small OAuth 2.1 authorization server and the MCP server it protects, on one port: protected-
 * resource and authorization-server metadata, dynamic client registration, an /authorize that
 * approves at once (the test plays the boss's browser), PKCE-checked code exchange, refresh and
 * revocation. /mcp answers 401 with `WWW-Authenticate` without a valid access token.
 */
export async function startOAuthServer(): Promise<OAuthServer> {
  const { createHash, randomBytes } = await import("node:crypto");
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const revoked: string[] = [];
  const issued: string[] = [];
  let refreshCount = 0;
  let base = "";
  const issue = () => {
    const token = { access_token: base64url(randomBytes(24)), refresh_token: base64url(randomBytes(24)) };
    access.add(token.access_token);
    refresh.add(token.refresh_token);
    issued.push(token.access_token, token.refresh_token);
    return { ...token, token_type: "Bearer", expires_in: 3600 };
  };
  const readForm = async (req: import("node:http").IncomingMessage) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const type = req.headers["content-type"] ?? "";
    return type.includes("json") ? new URLSearchParams(JSON.parse(text)) : new URLSearchParams(text);
  };
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        revocation_endpoint: `${base}/revoke`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (url.pathname === "/register" && req.method === "POST") {
      let text = "";
      for await (const chunk of req) text += chunk;
      const metadata = JSON.parse(text) as { redirect_uris: string[] };
      const client_id = base64url(randomBytes(12));
      clients.set(client_id, metadata);
      return json(res, 201, { ...metadata, client_id, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === "/authorize") {
      const clientId = url.searchParams.get("client_id") ?? "";
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (
        !clients.get(clientId)?.redirect_uris.includes(redirectUri) ||
        url.searchParams.get("code_challenge_method") !== "S256"
      ) {
        return json(res, 400, { error: "invalid_request" });
      }
      const code = base64url(randomBytes(16));
      codes.set(code, { clientId, challenge: url.searchParams.get("code_challenge") ?? "", redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return res.writeHead(302, { Location: back.href }).end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = await readForm(req);
      if (form.get("grant_type") === "authorization_code") {
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = base64url(createHash("sha256").update(verifier).digest());
        if (!grant || grant.challenge !== challenge || grant.clientId !== form.get("client_id"))
          return json(res, 400, { error: "invalid_grant" });
        return json(res, 200, issue());
      }
      if (form.get("grant_type") === "refresh_token" && refresh.delete(form.get("refresh_token") ?? "")) {
        refreshCount++;
        return json(res, 200, issue());
      }
      return json(res, 400, { error: "invalid_grant" });
    }
    if (url.pathname === "/revoke" && req.method === "POST") {
      const token = (await readForm(req)).get("token") ?? "";
      revoked.push(token);
      access.delete(token);
      refresh.delete(token);
      return res.writeHead(200).end();
    }
    if (url.pathname === "/mcp") {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!token || !access.has(token)) {
        res.writeHead(401, {
          "WWW-Authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          "Content-Type": "application/json",
        });
        return res.end(JSON.stringify({ error: "invalid_token" }));
      }
      const server = awkwardServer([]);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res);
    }
    return json(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    revoked,
    expireAccessTokens: () => access.clear(),
    signOutEveryone: () => {
      access.clear();
      refresh.clear();
    },
    refreshes: () => refreshCount,
    issued: () => [...issued],
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
