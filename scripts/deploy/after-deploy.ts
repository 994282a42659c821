// What `npm run deploy` does once the Worker is up: asks /healthz until it answers ok, and gives a
// fresh deployment its first way in (an operator key; the first workshop with its boss's one-time
// set-password link, when asked for one).
import { createOperatorKey } from "../create-operator.ts";
import { querySql } from "../lib.ts";
import { createWorkshopThrough, describeCreated } from "../workshop-create.ts";

/** What /healthz said last. */
export interface Health {
  status: number | null;
  body: Record<string, unknown> | null;
  error?: string;
}

/**
 * Asks `origin`/healthz every 3 seconds until it answers 200 with status "ok" or `timeoutMs` passes
 * (a new version takes a few seconds to reach every location); returns the last answer either way.
 */
export async function waitForHealth(origin: string, timeoutMs: number): Promise<{ ok: boolean; last: Health }> {
  const deadline = Date.now() + timeoutMs;
  let last: Health = { status: null, body: null };
  for (;;) {
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { text: text.slice(0, 500) };
      }
      last = { status: res.status, body };
      if (res.status === 200 && body?.status === "ok") return { ok: true, last };
    } catch (error) {
      last = { status: null, body: null, error: error instanceof Error ? error.message : String(error) };
    }
    const left = deadline - Date.now();
    if (left <= 0) return { ok: false, last };
    await new Promise((resolve) => setTimeout(resolve, Math.min(3_000, left)));
  }
}

/** One line per database of a /healthz answer: whether it is current, or the migrations it lacks. */
export function describeDatabases(body: Record<string, unknown> | null): string[] {
  const databases = (body?.databases ?? {}) as Record<string, { ok: boolean; missing_migrations: string[] }>;
  return Object.entries(databases).map(([name, db]) =>
    db.ok
      ? `${name}: current`
      : `${name}: ${db.missing_migrations.length > 0 ? `lacks ${db.missing_migrations.join(", ")}` : "does not answer"}`,
  );
}

/**
 * A deployment with no operator key gets one (printed once); one with no workshop gets its first,
 * when `workshop` names it, through the operator's API (its boss's one-time link printed), else
 * the command that makes it. Returns what to print.
 */
export async function firstSignIn({
  target,
  origin,
  workshop,
}: {
  target: string[];
  origin: string;
  workshop: { workshop_name: string; name: string; username: string } | null;
}): Promise<string[]> {
  const [counts] = querySql<{ operators: number; workshops: number }>(
    "SELECT (SELECT COUNT(*) FROM operator_keys WHERE revoked_at IS NULL) AS operators, (SELECT COUNT(*) FROM tenants) AS workshops",
    target,
  );
  const lines: string[] = [];
  let operatorKey = process.env.WEFT_OPERATOR_KEY;
  if ((counts?.operators ?? 0) === 0) {
    operatorKey = await createOperatorKey({ name: "operator", target });
    lines.push(
      "This deployment had no operator key; one was made. It is the only way into /api/admin (workshops, invites, moves,",
      "backups' index rebuilds, key rotation). Shown once, store it now (a password manager):",
      `  WEFT_OPERATOR_KEY=${operatorKey}`,
    );
  }
  if ((counts?.workshops ?? 0) > 0) return lines;
  if (workshop && operatorKey) {
    const created = await createWorkshopThrough({ base: origin, operatorKey, workshop });
    lines.push(describeCreated(created));
    return lines;
  }
  lines.push(
    "No workshop yet. Make the first (its boss gets a one-time link to set a password, and signs in at the browser):",
    `  WEFT_URL=${origin} WEFT_OPERATOR_KEY=${operatorKey ? "<the key above>" : "<your operator key>"} npm run workshop:create -- --remote --name 锦绣制衣 --boss 王老板 --username wang`,
    'Or let workshops sign up: SIGNUP = "invite" (codes from POST /api/admin/invites) or "open" in [env.production.vars], then npm run deploy.',
  );
  return lines;
}
