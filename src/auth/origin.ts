import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { forbidden } from "../errors.ts";

/**
 * Whether a browser `Origin` may call: the server's own origin, or one of `allowed`, where a
 * pattern may end in `:*` for any port (`http://localhost:*`). Compared as exact strings, never
 * as prefixes, so `http://localhost.evil.example` matches nothing.
 */
export function originAllowed(origin: string, requestUrl: string, allowed: readonly string[]): boolean {
  if (origin === new URL(requestUrl).origin) return true;
  for (const pattern of allowed) {
    if (pattern === origin) return true;
    if (pattern.endsWith(":*")) {
      const base = pattern.slice(0, -2);
      const port = origin.startsWith(`${base}:`) ? origin.slice(base.length + 1) : "";
      if (/^\d{1,5}$/.test(port)) return true;
    }
  }
  return false;
}

/**
 * Refuses a request whose `Origin` header is present and not allowed (403): the defence against
 * DNS rebinding that the MCP spec asks of servers. Requests without `Origin` (agents, curl) pass.
 *
 * @example app.use("/mcp", checkOrigin())
 */
export function checkOrigin() {
  return createMiddleware<AppEnv>(async function checkOriginMiddleware(c, next) {
    const origin = c.req.header("Origin");
    if (origin !== undefined && !originAllowed(origin, c.req.url, c.var.config.allowedOrigins)) {
      throw forbidden(`Requests from origin '${origin.slice(0, 100)}' are not allowed. Set ALLOWED_ORIGINS to allow it.`);
    }
    await next();
  });
}
