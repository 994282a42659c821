import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { AppError, badRequest } from "../errors.ts";
import { refreshTools } from "../federation/contact.ts";
import { currentTools, findTool } from "../federation/current-tools.ts";
import { convertToFunctionSchema } from "../federation/function-schema.ts";
import { callbackUrl, revokeTokens, startSignIn } from "../federation/oauth.ts";
import { changeServer, registerServer, serverView } from "../federation/registry.ts";
import { deleteServer, getServer, listServers } from "../federation/server-store.ts";
import { toStrictSchema } from "../federation/strict-schema.ts";
import { log } from "../log.ts";
import { externalToolName } from "../tools/tool-names.ts";
import { CreateServerSchema, UpdateServerSchema } from "./mcp-servers.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/mcp/servers`: a workshop's boss (or admin) registers external MCP servers, sees their
 * tools and health, and tests them. Header values go in and never come out.
 */
export const mcpServerRoutes = new Hono<AppEnv>();

mcpServerRoutes.use(bearerAuth(), requirePermission("servers:manage"));

mcpServerRoutes.post("/", validate("json", CreateServerSchema), async (c) => {
  const service = c.var.services.federation;
  const server = await registerServer({ service, input: c.req.valid("json") });
  if (server.authType !== "oauth") return c.json(serverView(server), 201);
  // Registered either way; a server that cannot start a sign-in says why, and can be retried.
  try {
    const authorization_url = await startSignIn(service, server, callbackUrl(c.req.url));
    return c.json({ ...serverView(server), sign_in: { authorization_url } }, 201);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return c.json({ ...serverView(server), sign_in: { error: error.message } }, 201);
  }
});

mcpServerRoutes.post("/:id/sign-in", async (c) => {
  const service = c.var.services.federation;
  const server = await getServer({ ...service, id: c.req.param("id") });
  if (server.authType !== "oauth") throw badRequest("This server uses headers, not OAuth; PATCH its headers instead.");
  return c.json({ authorization_url: await startSignIn(service, server, callbackUrl(c.req.url)) });
});

mcpServerRoutes.get("/", async (c) => {
  const servers = await listServers(c.var.services.federation);
  return c.json({ servers: servers.map(serverView) });
});

mcpServerRoutes.get("/:id", async (c) =>
  c.json(serverView(await getServer({ ...c.var.services.federation, id: c.req.param("id") }))),
);

mcpServerRoutes.patch("/:id", validate("json", UpdateServerSchema), async (c) => {
  const server = await changeServer({
    service: c.var.services.federation,
    id: c.req.param("id"),
    input: c.req.valid("json"),
  });
  return c.json(serverView(server));
});

mcpServerRoutes.delete("/:id", async (c) => {
  const id = c.req.param("id");
  const service = c.var.services.federation;
  await revokeTokens(service, await getServer({ ...service, id }));
  await deleteServer({ ...service, id });
  return c.json({ id, deleted: true });
});

mcpServerRoutes.post("/:id/refresh", async (c) => {
  const service = c.var.services.federation;
  const id = c.req.param("id");
  const { tools, latencyMs } = await refreshTools(service, await getServer({ ...service, id }));
  return c.json({
    server: serverView(await getServer({ ...service, id })),
    latency_ms: latencyMs,
    tools: tools.map((t) => ({ name: t.name, title: t.title ?? null, description: t.description })),
  });
});

mcpServerRoutes.get("/:id/tools", async (c) => {
  const service = c.var.services.federation;
  const server = await getServer({ ...service, id: c.req.param("id") });
  const tools = await currentTools(service, server);
  const fresh = await getServer({ ...service, id: server.id });
  return c.json({
    server_id: server.id,
    fetched_at: fresh.toolsFetchedAt,
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title ?? null,
      description: t.description,
      input_schema: t.inputSchema,
      annotations: t.annotations,
    })),
  });
});

// Action recall (seed 001, §4.1): the tool as a function a model can call through the proxy.
mcpServerRoutes.get("/:id/tools/:tool_name/function", async (c) => {
  const service = c.var.services.federation;
  const server = await getServer({ ...service, id: c.req.param("id") });
  const tool = await findTool(service, server, c.req.param("tool_name"));
  const conversion = convertToFunctionSchema(tool.inputSchema);
  if (!conversion.ok) {
    log("error", "mcp_schema_unconvertible", { server_id: server.id, tool: tool.name, reason: conversion.reason });
    throw new AppError("internal", `The tool's input schema cannot be converted: ${conversion.reason}.`);
  }
  const strict = toStrictSchema(conversion.parameters);
  const path = `/api/mcp/proxy/${encodeURIComponent(server.id)}/tools/${encodeURIComponent(tool.name)}/call`;
  return c.json({
    name: externalToolName(server.name, tool.name, new Set()),
    original_name: tool.name,
    description: tool.description,
    parameters: conversion.parameters,
    strict_parameters: strict.ok ? strict.parameters : null,
    strict_unavailable_reason: strict.ok ? null : strict.reason,
    pruned: conversion.pruned,
    api_url: new URL(path, c.req.url).href,
    fixed_params: {},
  });
});
