import { describe, expect, it } from "vitest";
import { call } from "./helpers.ts";

describe("GET /healthz", () => {
  it("reports the version, every database's migrations and the local backends", async () => {
    const res = await call("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      ok: true,
      name: "weft",
      environment: "test",
      status: "ok",
      databases: {
        DB: { ok: true, missing_migrations: [] },
        SHARD_1: { ok: true, missing_migrations: [] },
        SHARD_2: { ok: true, missing_migrations: [] },
      },
      backends: { vector_index: "local", embeddings: "local", reranker: "local", chat_model: "offline" },
    });
  });
});
