import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "../helpers.ts";

interface KeyBody {
  key?: string;
  id: string;
  prefix: string;
  revoked_at: string | null;
}

describe("bearer authentication", () => {
  it("rejects a request without a key with 401, a JSON error and a Bearer challenge", async () => {
    const res = await call("/api/knowledge-bases");
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    const body = await res.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.message).toMatch(/Authorization: Bearer/);
  });

  it("rejects an unknown key", async () => {
    const res = await call("/api/knowledge-bases", { key: "wft_not-a-real-key" });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });

  it("rejects a malformed authorization header", async () => {
    const res = await call("/api/knowledge-bases", { headers: { Authorization: "Basic Zm9vOmJhcg==" } });
    expect(res.status).toBe(401);
  });

  it("forbids a staff member from managing keys", async () => {
    const res = await call("/api/keys", { key: "dev-staff-key" });
    expect(res.status).toBe(403);
    const body = await res.json<{ error: { code: string; message: string } }>();
    expect(body.error).toMatchObject({ code: "forbidden" });
    expect(body.error.message).toContain("boss");
  });
});

describe("API key management", () => {
  it("creates a key that works at once, shows it once and stores only its hash", async () => {
    const res = await call("/api/keys", { method: "POST", key: "dev-boss-key", body: JSON.stringify({ name: "Cursor" }) });
    expect(res.status).toBe(201);
    const created = await res.json<KeyBody>();
    expect(created.key).toMatch(/^wft_[A-Za-z0-9_-]{32}$/);
    expect(created.key!.startsWith(created.prefix)).toBe(true);

    const stored = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(created.id).first<Record<string, string>>();
    expect(Object.values(stored!)).not.toContain(created.key);

    const list = await (await call("/api/keys", { key: "dev-boss-key" })).json<{ keys: KeyBody[] }>();
    const listed = list.keys.find((k) => k.id === created.id)!;
    expect(listed.prefix).toBe(created.prefix);
    expect(listed).not.toHaveProperty("key");
    expect(JSON.stringify(list)).not.toContain(created.key);

    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(200);
  });

  it("revokes a key so that it is refused afterwards", async () => {
    const created = await (
      await call("/api/keys", { method: "POST", key: "dev-boss-key", body: JSON.stringify({ name: "temporary" }) })
    ).json<KeyBody>();
    const revoked = await call(`/api/keys/${created.id}`, { method: "DELETE", key: "dev-boss-key" });
    expect(revoked.status).toBe(200);
    expect((await revoked.json<KeyBody>()).revoked_at).toBeTruthy();
    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(401);
  });

  it("creates a key for a staff member of the same workshop", async () => {
    const res = await call("/api/keys", {
      method: "POST",
      key: "dev-boss-key",
      body: JSON.stringify({ name: "for Li", user_id: "u-staff" }),
    });
    expect(res.status).toBe(201);
    const { key } = await res.json<KeyBody>();
    expect((await call("/api/keys", { key })).status).toBe(403);
  });

  it("refuses to create a key for a user of another workshop", async () => {
    const res = await call("/api/keys", {
      method: "POST",
      key: "dev-boss-key",
      body: JSON.stringify({ name: "sneaky", user_id: "u-other-boss" }),
    });
    expect(res.status).toBe(404);
  });

  it("cannot revoke or list another workshop's keys", async () => {
    const res = await call("/api/keys/k-u-boss", { method: "DELETE", key: "dev-other-boss-key" });
    expect(res.status).toBe(404);
    expect((await call("/api/knowledge-bases", { key: "dev-boss-key" })).status).toBe(200);
    const list = await (await call("/api/keys", { key: "dev-other-boss-key" })).json<{ keys: KeyBody[] }>();
    expect(list.keys.map((k) => k.id)).toEqual(["k-u-other-boss"]);
  });

  it("answers a body that fails validation with 400 naming the field", async () => {
    const res = await call("/api/keys", { method: "POST", key: "dev-boss-key", body: JSON.stringify({ name: "" }) });
    expect(res.status).toBe(400);
    const body = await res.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toContain("name");
  });
});
