import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { notFound } from "../errors.ts";
import { roleAllows } from "../permissions.ts";
import type { ConfirmBy, OAuthConnection } from "../shapes.ts";
import { ROLES, type Role, type UserContext } from "../user-context.ts";
import { type Access, type OAuthProps, SCOPES } from "./oauth-server.ts";

/** A client a person allowed to act for them at `/mcp`, as the settings list it. */
export type Connection = OAuthConnection;

/** The access a list of granted scopes amounts to: writes only when `weft:write` is among them. */
export function accessOf(scope: readonly string[]): Access {
  return scope.includes(SCOPES.write) ? "write" : "read";
}

/**
 * Records a consent. The person's earlier connections of the same client end with it, as the
 * provider replaces their grants (one grant per person, client and resource).
 */
export async function recordConnection({
  db,
  connection,
}: {
  db: D1Database;
  connection: OAuthProps & {
    clientId: string;
    clientName: string;
    redirectHost: string;
    access: Access;
    confirmBy: ConfirmBy;
    expiresAt: string;
  };
}): Promise<void> {
  const c = connection;
  await db.batch([
    db
      .prepare(
        `UPDATE oauth_connections SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          WHERE user_id = ?1 AND client_id = ?2 AND revoked_at IS NULL`,
      )
      .bind(c.userId, c.clientId),
    db
      .prepare(
        `INSERT INTO oauth_connections (id, tenant_id, user_id, client_id, client_name, redirect_host, scope, confirm_by, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
      )
      .bind(c.connectionId, c.tenantId, c.userId, c.clientId, c.clientName, c.redirectHost, c.access, c.confirmBy, c.expiresAt),
  ]);
}

/**
 * The caller a verified OAuth grant acts as, with their role as it is now, and the connection's
 * app and `confirm_by`; `null` when the connection was revoked or has ended, or the person is
 * gone or deactivated. D1 answers, not KV, so a revocation or a change holds from the next request on.
 */
export async function connectionUser({
  db,
  props,
}: {
  db: D1Database;
  props: OAuthProps;
}): Promise<{ user: UserContext; appName: string; confirmBy: ConfirmBy } | null> {
  const row = await db
    .prepare(
      `SELECT u.role, c.client_name, c.confirm_by FROM oauth_connections c JOIN users u ON u.id = c.user_id AND u.tenant_id = c.tenant_id
        WHERE c.id = ?1 AND c.user_id = ?2 AND c.tenant_id = ?3 AND c.revoked_at IS NULL AND u.deactivated_at IS NULL
          AND c.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(props.connectionId, props.userId, props.tenantId)
    .first<{ role: Role; client_name: string; confirm_by: ConfirmBy }>();
  if (!row) return null;
  return {
    user: { userId: props.userId, tenantId: props.tenantId, role: row.role },
    appName: row.client_name,
    confirmBy: row.confirm_by,
  };
}

const CONNECTION_SELECT = `SELECT c.id, c.user_id, u.name AS user_name, c.client_id, c.client_name, c.redirect_host,
    c.scope AS access, c.confirm_by, c.created_at, c.expires_at
  FROM oauth_connections c JOIN users u ON u.id = c.user_id AND u.tenant_id = c.tenant_id`;

/** The live connections a caller may see: their own, and for an admin everyone's in their workshop. */
export async function listConnections({ db, actor }: { db: D1Database; actor: UserContext }): Promise<Connection[]> {
  const everyone = roleAllows(actor.role, "admin");
  const { results } = await db
    .prepare(
      `${CONNECTION_SELECT}
        WHERE c.tenant_id = ?1 AND (?2 = 1 OR c.user_id = ?3) AND c.revoked_at IS NULL
          AND c.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        ORDER BY c.created_at DESC
        LIMIT 200`,
    )
    .bind(actor.tenantId, everyone ? 1 : 0, actor.userId)
    .all<Connection>();
  return results;
}

/**
 * Ends a connection the caller may see (their own, or as an admin one of their workshop's): at
 * once in D1, which every request checks, then its grant and tokens in KV. Another workshop's
 * connection is answered as unknown.
 */
export async function revokeConnection({
  db,
  oauth,
  actor,
  id,
}: {
  db: D1Database;
  oauth: OAuthHelpers;
  actor: UserContext;
  id: string;
}): Promise<void> {
  const everyone = roleAllows(actor.role, "admin");
  const row = await db
    .prepare(
      `UPDATE oauth_connections SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE id = ?1 AND tenant_id = ?2 AND (?3 = 1 OR user_id = ?4) AND revoked_at IS NULL
        RETURNING user_id`,
    )
    .bind(id, actor.tenantId, everyone ? 1 : 0, actor.userId)
    .first<{ user_id: string }>();
  if (!row) throw notFound("No such connected client.");
  await revokeGrantsOf({ oauth, userId: row.user_id, connectionIds: [id] });
}

/**
 * Revokes at the OAuth provider (in KV) the grants, and so the tokens, of connections already ended
 * in D1: one revoked in the settings, or every one of a person who was deactivated.
 */
export async function revokeGrantsOf({
  oauth,
  userId,
  connectionIds,
}: {
  oauth: OAuthHelpers;
  userId: string;
  connectionIds: readonly string[];
}): Promise<void> {
  if (connectionIds.length === 0) return;
  const ended = new Set(connectionIds);
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, { cursor, limit: 100 });
    for (const grant of page.items) {
      const connectionId = grant.metadata?.connectionId;
      if (typeof connectionId === "string" && ended.has(connectionId)) await oauth.revokeGrant(grant.id, userId);
    }
    cursor = page.cursor;
  } while (cursor);
}

/**
 * Sets who may say yes to a write a connected app prepares (`confirm_by`), for a connection the
 * caller may see (their own, or as an admin one of their workshop's, at or below their role);
 * another workshop's, or one they may not see, is unknown. The route allows it only from a
 * signed-in browser. Holds from the app's next request (every request reads the connection).
 */
export async function setConnectionConfirmBy({
  db,
  actor,
  id,
  confirmBy,
}: {
  db: D1Database;
  actor: UserContext;
  id: string;
  confirmBy: ConfirmBy;
}): Promise<Connection> {
  const everyone = roleAllows(actor.role, "admin");
  const row = await db
    .prepare(
      `UPDATE oauth_connections SET confirm_by = ?5
        WHERE id = ?1 AND tenant_id = ?2 AND (?3 = 1 OR user_id = ?4) AND revoked_at IS NULL
          AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          AND (SELECT role FROM users u WHERE u.id = oauth_connections.user_id AND u.tenant_id = ?2) IN (${rolesAtMost(actor.role)})
        RETURNING id`,
    )
    .bind(id, actor.tenantId, everyone ? 1 : 0, actor.userId, confirmBy)
    .first<{ id: string }>();
  const connection = row
    ? await db
        .prepare(`${CONNECTION_SELECT} WHERE c.id = ?1 AND c.tenant_id = ?2`)
        .bind(row.id, actor.tenantId)
        .first<Connection>()
    : null;
  if (!connection) throw notFound("No such connected client.");
  return connection;
}

/** The roles at or below `role`, as an SQL list. */
function rolesAtMost(role: Role): string {
  return ROLES.filter((r) => roleAllows(role, r))
    .map((r) => `'${r}'`)
    .join(", ");
}
