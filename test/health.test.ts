import { describe, expect, it } from "vitest";
import { call } from "./helpers.ts";

describe("GET /healthz", () => {
  it("reports the version, the database and the local backends", async () => {
    const res = await call("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      ok: true,
      name: "weft",
      environment: "test",
      database: { ok: true },
      backends: { vector_index: "local", embeddings: "local", reranker: "local", chat_model: "offline" },
    });
  });
});
