import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { unauthorized } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import { visiblePrefix } from "./api-keys.ts";
import { clientAddress } from "./client-address.ts";
import { recordFailedAuth, refuseIfBlocked, subjectsOf } from "./failed-auth.ts";
import type { Operator } from "./operator-keys.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The operator a presented key stands for; `null` for an unknown or revoked key. Asked of D1 every
 * time (the operator's requests are few), so a revoked operator key stops at once everywhere.
 */
export async function findOperator({ db, key }: { db: D1Database; key: string }): Promise<Operator | null> {
  const row = await db
    .prepare("SELECT id, prefix FROM operator_keys WHERE key_hash = ?1 AND revoked_at IS NULL")
    .bind(await sha256Hex(key))
    .first<{ id: string; prefix: string }>();
  return row ? { keyId: row.id, prefix: row.prefix } : null;
}

/**
 * Lets only the deployment's operator through (`Authorization: Bearer <operator key>`), setting
 * `c.var.operator`; 401 otherwise. An operator key is not a workshop's key: it names no workshop,
 * wires no workshop's services, and is refused everywhere else, as a workshop's key is here.
 * Failures count against the same limits as any key's (`failed-auth.ts`).
 *
 * @example adminRoutes.use(operatorAuth())
 */
export function operatorAuth() {
  return createMiddleware<AppEnv>(async function operatorAuthMiddleware(c, next) {
    const { db, limiters } = c.var.directory;
    const address = clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader });
    refuseIfBlocked(subjectsOf({ address, keyPrefix: undefined }));
    const key = c.req.header("Authorization")?.match(BEARER)?.[1];
    if (!key) throw unauthorized("Send the deployment's operator key as 'Authorization: Bearer <key>'.");
    const operator = await findOperator({ db, key });
    if (!operator) {
      const subjects = subjectsOf({ address, keyPrefix: visiblePrefix(key) });
      throw (
        (await recordFailedAuth({ limiters, subjects })) ??
        unauthorized("This is not an operator key of this Weft, or it was revoked.")
      );
    }
    c.executionCtx.waitUntil(
      db
        .prepare("UPDATE operator_keys SET last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1")
        .bind(operator.keyId)
        .run(),
    );
    c.set("operator", operator);
    await next();
  });
}
