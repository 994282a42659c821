import type { Context } from "hono";
import pkg from "../../package.json" with { type: "json" };
import type { AppEnv } from "../app-env.ts";

/**
 * `GET /healthz`: whether the database answers, the version, and which backend each remote-only
 * piece is really using, read from the same configuration the code paths use.
 */
export async function health(c: Context<AppEnv>) {
  const { environment, backends } = c.var.config;
  const database = await c.var.directory.db
    .prepare("SELECT COUNT(*) AS n FROM d1_migrations")
    .first<{ n: number }>()
    .then((row) => ({ ok: true, migrations_applied: row?.n ?? 0 }))
    .catch(() => ({ ok: false, migrations_applied: 0 }));
  const ok = database.ok && database.migrations_applied > 0;
  return c.json(
    {
      ok,
      name: "weft",
      version: pkg.version,
      environment,
      database,
      backends: {
        vector_index: backends.vectorIndex,
        embeddings: backends.embeddings,
        reranker: backends.reranker,
        chat_model: backends.chatModel,
      },
    },
    ok ? 200 : 503,
  );
}
