import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { forbidden, unauthorized } from "../errors.ts";
import { FEDERATION_HEADER } from "../federation/guarded-fetch.ts";
import { can, LEAST_ROLE, type Permission, roleAllows } from "../permissions.ts";
import { type Face, requireCurrentSchema, servicesFor } from "../services.ts";
import type { Role, UserContext } from "../user-context.ts";
import type { WorkshopRef } from "../workshop-db.ts";
import { findUserByApiKey, touchApiKey, visiblePrefix } from "./api-keys.ts";
import { bookmarkOf, sendBookmark } from "./bookmark.ts";
import { clientAddress } from "./client-address.ts";
import type { Credential } from "./credential.ts";
import { recordFailedAuth, refuseIfBlocked, type Subject, subjectsOf } from "./failed-auth.ts";
import { connectionUser } from "./oauth-connections.ts";
import { SCOPES, verifiedGrantOf } from "./oauth-server.ts";
import { originAllowed } from "./origin.ts";
import { sessionToken } from "./session-cookie.ts";
import { findWebSession } from "./web-sessions.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Resolves `Authorization: Bearer <key>` to a `UserContext` on `c.var.user`: an API key, or at
 * `/mcp` an OAuth token the provider already verified, whose connection must still be live in D1
 * (a token without `weft:write` makes the caller read-only). Missing, unknown and
 * revoked keys get 401 (the error handler adds `WWW-Authenticate: Bearer`, RFC 6750). Failed
 * attempts are counted per client address and key prefix; past the limits the answer is 429 with
 * `Retry-After`. A good key costs no limiter call and, when verified recently, no D1 lookup.
 * Under `/api/` a browser's session cookie is accepted instead when no `Authorization` header is
 * sent; a state-changing request authenticated that way must carry an allowed `Origin` (CSRF).
 * Once the caller is known, their workshop's services are wired for `face` (`c.var.services`):
 * no request reaches a workshop's data before this.
 *
 * @example app.use("/mcp", bearerAuth())
 */
export function bearerAuth({
  face = "chat",
  latestReads = false,
}: {
  face?: Face;
  /**
   * Read from the primary whatever bookmark the client sends: for chat history, whose replies are
   * written after their response (and so after the bookmark it carried).
   */
  latestReads?: boolean;
} = {}) {
  return createMiddleware<AppEnv>(async function bearerAuthMiddleware(c, next) {
    let placed: WorkshopRef | undefined;
    const signedIn = async (user: UserContext, credential: Credential, workshop: WorkshopRef) => {
      await requireCurrentSchema(c.env, workshop);
      placed = workshop;
      c.set("user", user);
      c.set("credential", credential);
      c.set(
        "services",
        servicesFor(c.env, c.var.config, workshop, {
          face,
          relayed: c.req.header(FEDERATION_HEADER) !== undefined,
          bookmark: latestReads ? undefined : bookmarkOf(c, workshop),
          origin: new URL(c.req.url).origin,
        }),
      );
    };
    await authenticate(c, signedIn);
    await next();
    if (placed) sendBookmark(c, placed, c.var.services.bookmark());
  });
}

/** Finds who is calling (a browser session, an OAuth grant or an API key) and hands them to `signedIn`. */
async function authenticate(
  c: Context<AppEnv>,
  signedIn: (user: UserContext, credential: Credential, workshop: WorkshopRef) => Promise<void>,
): Promise<void> {
  const { db } = c.var.directory;
  const address = clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader });
  refuseIfBlocked(subjectsOf({ address, keyPrefix: undefined }));
  const header = c.req.header("Authorization");
  const cookie = header === undefined && c.req.path.startsWith("/api/") ? sessionToken(c) : undefined;
  if (cookie) {
    const session = await findWebSession({ db, token: cookie });
    if (!session) throw unauthorized("Your sign-in has ended. Sign in again.");
    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header("Origin");
      if (origin === undefined || !originAllowed(origin, c.req.url, c.var.config.allowedOrigins)) {
        throw forbidden("A signed-in browser request that changes data must come from an allowed Origin.");
      }
    }
    const user = { userId: session.userId, tenantId: session.tenantId, role: session.role };
    return signedIn(user, { kind: "session" }, session.workshop);
  }
  if (header === undefined) throw unauthorized("Send an API key as 'Authorization: Bearer <key>'.");
  const grant = verifiedGrantOf(c.executionCtx);
  if (grant) {
    const connection = await connectionUser({ db, props: grant.props });
    if (!connection) throw unauthorized("This connection was revoked or has ended. Connect the client to Weft again.");
    const { user, appName, confirmBy, workshop } = connection;
    const credential: Credential = { kind: "oauth", connectionId: grant.props.connectionId, appName, confirmBy };
    return signedIn(grant.scope.includes(SCOPES.write) ? user : { ...user, readOnly: true }, credential, workshop);
  }
  const key = header.match(BEARER)?.[1];
  const fail = async (subjects: Subject[], message: string): Promise<never> => {
    throw (await recordFailedAuth({ limiters: c.var.directory.limiters, subjects })) ?? unauthorized(message);
  };
  if (!key) return fail(subjectsOf({ address, keyPrefix: undefined }), "Send an API key as 'Authorization: Bearer <key>'.");
  const user = await findUserByApiKey({ db, key });
  if (!user) return fail(subjectsOf({ address, keyPrefix: visiblePrefix(key) }), "This API key is unknown or has been revoked.");
  // Use is recorded when the key is verified against D1 and last_used_at is older than 10 minutes.
  if (user.record) c.executionCtx.waitUntil(touchApiKey({ db, keyId: user.keyId }));
  return signedIn(
    { userId: user.userId, tenantId: user.tenantId, role: user.role },
    { kind: "api_key", keyId: user.keyId, prefix: user.prefix, confirmBy: user.confirmBy },
    user.workshop,
  );
}

/**
 * Lets only callers whose role is at least `role` through; 403 otherwise. Prefer
 * `requirePermission`, which names the rule instead of the role.
 *
 * @example app.post("/api/things", requireRole("boss"), handler)
 */
export function requireRole(role: Role) {
  return createMiddleware<AppEnv>(async function requireRoleMiddleware(c, next) {
    if (!roleAllows(c.var.user.role, role)) {
      throw forbidden(`This needs the '${role}' role; your key has '${c.var.user.role}'.`);
    }
    await next();
  });
}

/**
 * Lets only callers whose role grants `permission` (see `LEAST_ROLE`) through; 403 otherwise.
 *
 * @example app.post("/api/knowledge-bases", requirePermission("knowledge:write"), handler)
 */
export function requirePermission(permission: Permission) {
  return createMiddleware<AppEnv>(async function requirePermissionMiddleware(c, next) {
    if (!can(c.var.user, permission)) {
      throw forbidden(`This needs the '${LEAST_ROLE[permission]}' role; your key has '${c.var.user.role}'.`);
    }
    await next();
  });
}
