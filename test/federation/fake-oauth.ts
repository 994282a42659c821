import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

export const SECURE = "https://secure.example.com/mcp";
const AS = "https://auth.example.com";

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
const random = () => b64url(crypto.getRandomValues(new Uint8Array(18)));

/**
 * A fake OAuth authorization server (auth.example.com) and the MCP server it protects
 * (secure.example.com), as a request handler for `installFakeNetwork`. `authorizeEndpoint` lets a
 * test make the server hand out a hostile sign-in link; `expiresIn` sets the lifetime it announces
 * for new access tokens; `refreshGate`, while set, holds every refresh until it resolves;
 * `refuseTokens` makes the MCP server answer 401 to any token; `withRefreshTokens: false` issues
 * access tokens alone; `sameAccessOnRefresh` answers a refresh with the access token it last issued
 * (as a provider may while that token has not expired); `stateful` makes the MCP server keep a
 * session per `initialize`, `refuseNextCall` makes it answer the next `tools/call` 401 whatever its
 * token, and `mcpRequests` records what each request to it carried. Refresh tokens rotate: each
 * works once.
 */
export function fakeOAuth() {
  const state = {
    clients: new Map<string, string[]>(),
    codes: new Map<string, { challenge: string; clientId: string }>(),
    access: new Set<string>(),
    refresh: new Set<string>(),
    revoked: [] as string[],
    refreshes: 0,
    refusedRefreshes: 0,
    unauthorized: 0,
    expiresIn: 3600,
    refuseTokens: false,
    withRefreshTokens: true,
    sameAccessOnRefresh: false,
    lastAccess: "",
    refreshGate: undefined as Promise<void> | undefined,
    authorizeEndpoint: `${AS}/authorize`,
    stateful: false,
    refuseNextCall: false,
    sessions: new Map<string, WebStandardStreamableHTTPServerTransport>(),
    mcpRequests: [] as { rpc: string | null; sessionId: string | null; token: string | null; status: number }[],
  };
  const issue = (refreshing = false) => {
    const access_token = refreshing && state.sameAccessOnRefresh ? state.lastAccess : random();
    const tokens = { access_token, token_type: "Bearer", expires_in: state.expiresIn };
    state.access.add(tokens.access_token);
    state.lastAccess = access_token;
    if (!state.withRefreshTokens) return Response.json(tokens);
    const refresh_token = random();
    state.refresh.add(refresh_token);
    return Response.json({ ...tokens, refresh_token });
  };
  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.origin === "https://secure.example.com") {
      if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
        return Response.json({ resource: SECURE, authorization_servers: [AS] });
      }
      const token = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
      const rpc = request.method === "POST" ? ((await request.clone().json()) as { method?: string }).method : undefined;
      const response = await answerMcp(request, token, rpc);
      state.mcpRequests.push({
        rpc: rpc ?? request.method,
        sessionId: request.headers.get("mcp-session-id"),
        token: token ?? null,
        status: response.status,
      });
      return response;
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return Response.json({
        issuer: AS,
        authorization_endpoint: state.authorizeEndpoint,
        token_endpoint: `${AS}/token`,
        registration_endpoint: `${AS}/register`,
        revocation_endpoint: `${AS}/revoke`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (url.pathname === "/register") {
      const metadata = (await request.json()) as { redirect_uris: string[] };
      const client_id = random();
      state.clients.set(client_id, metadata.redirect_uris);
      return Response.json({ ...metadata, client_id }, { status: 201 });
    }
    if (url.pathname === "/authorize") {
      const clientId = url.searchParams.get("client_id") ?? "";
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (!state.clients.get(clientId)?.includes(redirectUri))
        return Response.json({ error: "invalid_request" }, { status: 400 });
      const code = random();
      state.codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", clientId });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return new Response(null, { status: 302, headers: { Location: back.href } });
    }
    const form = new URLSearchParams(await request.text());
    if (url.pathname === "/token" && form.get("grant_type") === "refresh_token") await state.refreshGate;
    if (url.pathname === "/token" && form.get("grant_type") === "authorization_code") {
      const grant = state.codes.get(form.get("code") ?? "");
      state.codes.delete(form.get("code") ?? "");
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(form.get("code_verifier") ?? ""));
      if (!grant || grant.challenge !== b64url(digest)) return Response.json({ error: "invalid_grant" }, { status: 400 });
      return issue();
    }
    if (
      url.pathname === "/token" &&
      form.get("grant_type") === "refresh_token" &&
      state.refresh.delete(form.get("refresh_token") ?? "")
    ) {
      state.refreshes++;
      return issue(true);
    }
    if (url.pathname === "/token" && form.get("grant_type") === "refresh_token") state.refusedRefreshes++;
    if (url.pathname === "/revoke") {
      state.revoked.push(form.get("token") ?? "");
      return new Response(null, { status: 200 });
    }
    return Response.json({ error: "invalid_grant" }, { status: 400 });
  }
  async function answerMcp(request: Request, token: string | undefined, rpc: string | undefined): Promise<Response> {
    const refusedCall = rpc === "tools/call" && state.refuseNextCall;
    if (refusedCall) state.refuseNextCall = false;
    if (!token || !state.access.has(token) || state.refuseTokens || refusedCall) {
      state.unauthorized++;
      return Response.json(
        { error: "invalid_token" },
        {
          status: 401,
          headers: {
            "WWW-Authenticate": `Bearer resource_metadata="https://secure.example.com/.well-known/oauth-protected-resource/mcp"`,
          },
        },
      );
    }
    const sessionId = request.headers.get("mcp-session-id");
    const known = sessionId ? state.sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(request);
    if (sessionId)
      return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
    const server = new McpServer({ name: "secure", version: "1.0.0" });
    server.registerTool(
      "ping_secure",
      { description: "Answers pong.", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => ({
        content: [{ type: "text", text: "pong" }],
      }),
    );
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: state.stateful ? () => crypto.randomUUID() : undefined,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        state.sessions.set(id, transport);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: request.method === "POST" ? await request.json() : undefined });
  }
  const handler = (request: Request) =>
    ["https://secure.example.com", AS].includes(new URL(request.url).origin) ? handle(request) : undefined;
  return { state, handler };
}
