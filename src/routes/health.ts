import type { Context } from "hono";
import pkg from "../../package.json" with { type: "json" };
import type { AppEnv } from "../app-env.ts";
import type { ConfigProblem } from "../config-problems.ts";
import type { ErrorBody } from "../errors.ts";
import { schemaMissing, shardsOf } from "../services.ts";

/** What `/healthz` says of one database: whether it answers and which expected migrations it lacks. */
interface DatabaseHealth {
  ok: boolean;
  missing_migrations: string[];
}

async function databaseHealth(db: D1Database): Promise<DatabaseHealth> {
  try {
    const missing = await schemaMissing(db);
    return { ok: missing.length === 0, missing_migrations: missing };
  } catch {
    return { ok: false, missing_migrations: [] };
  }
}

/**
 * `GET /healthz`: whether every database (the directory and each shard) answers and has applied
 * every migration this version expects, the version, and which backend each remote-only piece is
 * really using, read from the same configuration the code paths use. 503 when a database is
 * unreachable or behind (`status: "schema_behind"` names it and its missing migrations).
 */
export async function health(c: Context<AppEnv>) {
  const { environment, backends } = c.var.config;
  const shards = [...shardsOf(c.env)];
  const checks = await Promise.all(shards.map(([, db]) => databaseHealth(db)));
  const databases = Object.fromEntries(shards.map(([name], i) => [name, checks[i] as DatabaseHealth]));
  const unreachable = checks.some((check) => !check.ok && check.missing_migrations.length === 0);
  const behind = checks.some((check) => check.missing_migrations.length > 0);
  const status = unreachable ? "database_unavailable" : behind ? "schema_behind" : "ok";
  return c.json(
    {
      ok: status === "ok",
      status,
      name: "weft",
      version: pkg.version,
      environment,
      databases,
      backends: {
        vector_index: backends.vectorIndex,
        embeddings: backends.embeddings,
        reranker: backends.reranker,
        chat_model: backends.chatModel,
      },
    },
    status === "ok" ? 200 : 503,
  );
}

/**
 * The answer of a deployment whose settings are missing or malformed, to every request: at
 * `/healthz`, `status: "misconfigured"` with the settings' names and what is wrong with each (never
 * a value); elsewhere the error body with code `misconfigured` naming them. Nothing else is served,
 * so the answer holds no workshop's data whatever the `Host`.
 */
export function misconfigured(request: Request, problems: ConfigProblem[]): Response {
  const names = [...new Set(problems.map((p) => p.name))];
  if (new URL(request.url).pathname === "/healthz") {
    return Response.json(
      { ok: false, status: "misconfigured", name: "weft", version: pkg.version, misconfigured: names, problems },
      { status: 503 },
    );
  }
  const body: ErrorBody = {
    error: {
      code: "misconfigured",
      message: `This Weft cannot serve requests: ${names.join(", ")} ${names.length === 1 ? "is" : "are"} missing or malformed. Its operator must set ${names.length === 1 ? "it" : "them"} (GET /healthz says what is wrong, docs/deployment.md how).`,
      request_id: crypto.randomUUID(),
      details: { settings: names },
    },
  };
  return Response.json(body, { status: 503 });
}
