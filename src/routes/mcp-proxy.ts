import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { AppError, badRequest, forbidden } from "../errors.ts";
import { callExternalTool } from "../federation/call-tool.ts";
import { findTool } from "../federation/current-tools.ts";
import { mayUse } from "../federation/provider.ts";
import { getServer } from "../federation/server-store.ts";
import { toolContext } from "../tools/context.ts";
import { runTool } from "../tools/run-tool.ts";
import type { JsonSchemaTool } from "../tools/tool.ts";
import { describeIssues } from "../validation.ts";
import { requireJson } from "./json-body.ts";
import { ProxyArgumentsSchema } from "./mcp-servers.schema.ts";

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * `/api/mcp/proxy/:id/tools/:tool_name/call` (seed 001, §4.2): flat JSON arguments in, the tool's
 * result out. Arguments are checked against the tool's own schema (400 naming the fields); an
 * unknown server or tool is 404; an unreachable, slow or failing server 502. Every error body
 * carries `details: { is_upstream, status_code, retryable }`.
 */
export const mcpProxyRoutes = new Hono<AppEnv>();

mcpProxyRoutes.use(bearerAuth());

mcpProxyRoutes.post(
  "/:id/tools/:tool_name/call",
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw withDetails(new AppError("payload_too_large", `The body is over ${MAX_BODY_BYTES} bytes.`));
    },
  }),
  async function proxyCall(c) {
    try {
      // Before anything reaches the server: a body that is no arguments object is the caller's mistake, whatever the server's state.
      const args = await readArguments(c.req.raw);
      const service = c.var.services.federation;
      const user = c.var.user;
      const server = await getServer({ ...c.var.services.federation, id: c.req.param("id") });
      if (!server.enabled) throw new AppError("conflict", `The MCP server '${server.name}' is disabled.`);
      const cached = await findTool(service, server, c.req.param("tool_name"));
      if (!mayUse(user, cached)) throw forbidden("This tool may change things; it needs the 'boss' role.");
      const tool: JsonSchemaTool = {
        kind: "json-schema",
        name: cached.name,
        title: cached.title ?? cached.name,
        description: cached.description,
        inputSchema: cached.inputSchema,
        annotations: cached.annotations,
        run: async (ctx, input) => ({
          kind: "result",
          ...(await callExternalTool(service, server, cached.name, input, ctx.user.userId)),
        }),
      };
      const ctx = toolContext({
        user,
        requestId: c.var.requestId,
        signal: c.req.raw.signal,
        config: c.var.config,
        services: c.var.services,
      });
      const outcome = await runTool(tool, ctx, args);
      if (!outcome.ok) throw new AppError(outcome.code, outcome.message, outcome.details ? { details: outcome.details } : {});
      if (outcome.kind === "pending_action") return c.json({ pending_action: outcome.action });
      return c.json({ result: outcome.structured, text: outcome.text ?? null });
    } catch (error) {
      throw withDetails(error);
    }
  },
);

const NOT_AN_OBJECT = "The body must be a JSON object of the tool's parameters";

/**
 * The call's arguments: the body as a JSON object, sent as JSON (415 for another Content-Type, as
 * on every JSON route; 400 naming what is wrong otherwise).
 */
async function readArguments(request: Request): Promise<Record<string, unknown>> {
  requireJson(request.headers.get("Content-Type") ?? undefined);
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw badRequest(`${NOT_AN_OBJECT}; it is not valid JSON.`);
  }
  const parsed = ProxyArgumentsSchema.safeParse(body);
  if (!parsed.success) throw badRequest(`${NOT_AN_OBJECT}: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

/** The same error with the proxy's `details`: Weft's own errors say `is_upstream: false`. */
function withDetails(error: unknown): unknown {
  if (!(error instanceof AppError) || error.details?.is_upstream !== undefined) return error;
  return new AppError(error.code, error.message, {
    details: { ...error.details, is_upstream: false, status_code: error.status, retryable: error.retryable },
    cause: error.cause,
  });
}
