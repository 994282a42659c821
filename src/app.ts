import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./app-env.ts";
import { chatRoutes } from "./chat/route.ts";
import { configFor } from "./config.ts";
import { AppError, type ErrorBody, GENERIC_MESSAGE } from "./errors.ts";
import { log } from "./log.ts";
import { mcpRoutes } from "./mcp/route.ts";
import { actionRoutes } from "./routes/actions.ts";
import { adminRoutes } from "./routes/admin.ts";
import { apiKeyRoutes } from "./routes/api-keys.ts";
import { auditRoutes } from "./routes/audit.ts";
import { authRoutes } from "./routes/auth.ts";
import { businessRoutes } from "./routes/business.ts";
import { chatHistoryRoutes } from "./routes/chats.ts";
import { consultTreeRoutes } from "./routes/consult-trees.ts";
import { consultationRoutes } from "./routes/consultations.ts";
import { feedbackRoutes } from "./routes/feedback.ts";
import { health } from "./routes/health.ts";
import { icon } from "./routes/icons.ts";
import { knowledgeBaseRoutes } from "./routes/knowledge-bases.ts";
import { knowledgeSearchRoutes } from "./routes/knowledge-search.ts";
import { mcpOAuthRoutes } from "./routes/mcp-oauth.ts";
import { mcpProxyRoutes } from "./routes/mcp-proxy.ts";
import { mcpServerRoutes } from "./routes/mcp-servers.ts";
import { oauthRoutes } from "./routes/oauth-authorize.ts";
import { oauthConnectionRoutes } from "./routes/oauth-connections.ts";
import { peopleRoutes } from "./routes/people.ts";
import { synonymRoutes } from "./routes/synonyms.ts";
import { workshopRoutes } from "./routes/workshop.ts";
import { workshopSignUpRoutes } from "./routes/workshops.ts";
import { directoryFor } from "./services.ts";

/** The Worker's HTTP surface: both faces, the REST routes, and the one place errors become responses. */
export const app = new Hono<AppEnv>();

// A client-chosen id is kept only when short and plain, since it is echoed in logs and error bodies.
app.use(requestId({ headerName: "X-Request-Id", limitLength: 64 }));
app.use(async function wireDirectory(c, next) {
  c.set("config", configFor(c.env));
  // A workshop's services are wired once authentication has said whose workshop it is (bearerAuth).
  c.set("directory", directoryFor(c.env));
  await next();
});
app.use(async function accessLog(c, next) {
  const started = Date.now();
  await next();
  // Path and ids only: headers and bodies, where keys and user text live, are never logged.
  log("info", "request", {
    request_id: c.var.requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    duration_ms: Date.now() - started,
    tenant_id: c.var.user?.tenantId,
    user_id: c.var.user?.userId,
  });
});

app.get("/healthz", health);
app.get("/icons/:file", icon);
// The confirm, sign-up and set-password pages are the browser UI's, at addresses of their own: the
// UI reads which from the path (and a link's token or invite code from the fragment, which no
// server or log ever sees).
const uiPage = (c: Context<AppEnv>) => c.env.ASSETS.fetch(new Request(new URL("/", c.req.url), { headers: c.req.raw.headers }));
app.get("/actions/:id", uiPage);
app.get("/sign-up", uiPage);
app.get("/set-password", uiPage);
app.route("/mcp", mcpRoutes);
app.route("/api/auth", authRoutes);
app.route("/api/chat", chatRoutes);
app.route("/api/chats", chatHistoryRoutes);
app.route("/api/feedback", feedbackRoutes);
app.route("/api/keys", apiKeyRoutes);
app.route("/api/knowledge-bases", knowledgeBaseRoutes);
app.route("/api/v1/knowledge-search", knowledgeSearchRoutes);
app.route("/api/synonyms", synonymRoutes);
app.route("/api/consult/trees", consultTreeRoutes);
app.route("/api/consultations", consultationRoutes);
app.route("/api/workshop", workshopRoutes);
app.route("/api/workshops", workshopSignUpRoutes);
app.route("/api/people", peopleRoutes);
app.route("/api/admin", adminRoutes);
app.route("/api/actions", actionRoutes);
app.route("/api/audit", auditRoutes);
app.route("/api/business", businessRoutes);
app.route("/api/mcp/servers", mcpServerRoutes);
app.route("/api/mcp/oauth", mcpOAuthRoutes);
app.route("/api/mcp/proxy", mcpProxyRoutes);
app.route("/api/oauth/connections", oauthConnectionRoutes);
app.route("/oauth", oauthRoutes);

app.notFound((c) =>
  c.json<ErrorBody>(
    { error: { code: "not_found", message: `No route for ${c.req.method} ${c.req.path}.`, request_id: c.var.requestId } },
    404,
  ),
);

app.onError(function handleError(error, c) {
  const request_id = c.var.requestId;
  if (error instanceof AppError) {
    const headers: Record<string, string> = error.status === 401 ? { "WWW-Authenticate": 'Bearer realm="weft"' } : {};
    // Past a limit (429), or a write in progress (409): when to ask again.
    const retryAfter = error.details?.retry_after_seconds;
    if (typeof retryAfter === "number") headers["Retry-After"] = String(retryAfter);
    const body: ErrorBody = {
      error: { code: error.code, message: error.message, request_id, ...(error.details ? { details: error.details } : {}) },
    };
    // A deliberate server-side failure (an upstream down, say) is still worth a log line with its cause.
    if (error.status >= 500) log("warn", "request_failed", { request_id, code: error.code, error: error.cause ?? error });
    return c.json(body, error.status, headers);
  }
  // Hono's validator throws this for a body that is not JSON: the client's mistake, never a 500.
  if (error instanceof HTTPException && error.status === 400) {
    return c.json<ErrorBody>(
      { error: { code: "invalid_json", message: "The request body is not valid JSON.", request_id } },
      400,
    );
  }
  log("error", "unhandled_error", { request_id, method: c.req.method, path: c.req.path, error });
  return c.json<ErrorBody>({ error: { code: "internal", message: GENERIC_MESSAGE, request_id } }, 500);
});
