import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { forbidden, unauthorized } from "../errors.ts";
import { type Role, roleAtLeast } from "../user-context.ts";
import { findUserByApiKey, touchApiKey } from "./api-keys.ts";
import { originAllowed } from "./origin.ts";
import { sessionToken } from "./session-cookie.ts";
import { findWebSession } from "./web-sessions.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Resolves `Authorization: Bearer <key>` to a `UserContext` on `c.var.user`. Missing, unknown and
 * revoked keys get 401 (the error handler adds `WWW-Authenticate: Bearer`, RFC 6750). Under
 * `/api/` a browser's session cookie is accepted instead when no `Authorization` header is sent;
 * a state-changing request authenticated that way must carry an allowed `Origin` (CSRF).
 *
 * @example app.use("/mcp", bearerAuth())
 */
export function bearerAuth() {
  return createMiddleware<AppEnv>(async function bearerAuthMiddleware(c, next) {
    const header = c.req.header("Authorization");
    const cookie = header === undefined && c.req.path.startsWith("/api/") ? sessionToken(c) : undefined;
    if (cookie) {
      const session = await findWebSession({ db: c.env.DB, token: cookie });
      if (!session) throw unauthorized("Your sign-in has ended. Sign in again.");
      if (!SAFE_METHODS.has(c.req.method)) {
        const origin = c.req.header("Origin");
        if (origin === undefined || !originAllowed(origin, c.req.url, c.var.config.allowedOrigins)) {
          throw forbidden("A signed-in browser request that changes data must come from an allowed Origin.");
        }
      }
      c.set("user", { userId: session.userId, tenantId: session.tenantId, role: session.role });
      return next();
    }
    const key = header?.match(BEARER)?.[1];
    if (!key) throw unauthorized("Send an API key as 'Authorization: Bearer <key>'.");
    const user = await findUserByApiKey({ db: c.env.DB, key });
    if (!user) throw unauthorized("This API key is unknown or has been revoked.");
    c.executionCtx.waitUntil(touchApiKey({ db: c.env.DB, keyId: user.keyId }));
    c.set("user", { userId: user.userId, tenantId: user.tenantId, role: user.role });
    await next();
  });
}

/**
 * Lets only callers whose role is at least `role` through; 403 otherwise.
 *
 * @example app.post("/api/keys", requireRole("boss"), handler)
 */
export function requireRole(role: Role) {
  return createMiddleware<AppEnv>(async function requireRoleMiddleware(c, next) {
    if (!roleAtLeast(c.var.user.role, role)) {
      throw forbidden(`This needs the '${role}' role; your key has '${c.var.user.role}'.`);
    }
    await next();
  });
}
