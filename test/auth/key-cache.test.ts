import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEY_CACHE_TTL_MS, KeyCache } from "../../src/auth/key-cache.ts";
import { keys as devKeys } from "../fixtures.ts";
import { call } from "../helpers.ts";

const staff = {
  keyId: "k1",
  prefix: "dev-",
  confirmBy: "weft" as const,
  userId: "u-staff",
  tenantId: "t-jinxiu",
  role: "staff" as const,
};

describe("the verified-key cache", () => {
  it("answers within its lifetime and forgets after it, by its clock", () => {
    let now = 1_000;
    const cache = new KeyCache(30_000, () => now);
    cache.set("h", staff);
    now += 29_999;
    expect(cache.get("h")).toEqual(staff);
    now += 1;
    expect(cache.get("h")).toBeUndefined();
  });

  it("forgets a key by its id at once", () => {
    const cache = new KeyCache(30_000, () => 0);
    cache.set("h", staff);
    cache.forget("k1");
    expect(cache.get("h")).toBeUndefined();
  });

  it("stays bounded, dropping the oldest entry", () => {
    const cache = new KeyCache(30_000, () => 0);
    for (let i = 0; i <= 1000; i++) cache.set(`h${i}`, { ...staff, keyId: `k${i}` });
    expect(cache.get("h0")).toBeUndefined();
    expect(cache.get("h1000")?.keyId).toBe("k1000");
  });
});

describe("a key revoked elsewhere", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keeps working from this isolate's cache, without D1, and stops within the stated bound", async () => {
    const created = await (
      await call("/api/keys", { method: "POST", key: devKeys.staff, body: JSON.stringify({ name: "cached" }) })
    ).json<{ id: string; key: string }>();
    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(200);
    // Another isolate revoked it: the row changes, this isolate's cache does not hear of it.
    await env.DB.prepare("UPDATE api_keys SET revoked_at = 'now' WHERE id = ?").bind(created.id).run();
    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(200);

    const start = Date.now();
    vi.spyOn(Date, "now").mockImplementation(() => start + KEY_CACHE_TTL_MS + 1);
    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(401);
    expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(30_000);
  });
});
