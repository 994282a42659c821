import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { generateApiKey, visiblePrefix } from "../../src/auth/api-keys.ts";
import { apiKeyCache } from "../../src/auth/key-cache.ts";
import { keys as devKeys } from "../fixtures.ts";
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

  it("lets a staff member list only their own keys", async () => {
    const res = await call("/api/keys", { key: devKeys.staff });
    expect(res.status).toBe(200);
    const { keys } = await res.json<{ keys: (KeyBody & { user_id: string })[] }>();
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys.map((k) => k.user_id))).toEqual(new Set(["u-staff"]));
  });
});

describe("API key management", () => {
  it("creates a key that works at once, shows it once and stores only its hash", async () => {
    const res = await call("/api/keys", { method: "POST", key: devKeys.boss, body: JSON.stringify({ name: "Cursor" }) });
    expect(res.status).toBe(201);
    const created = await res.json<KeyBody>();
    expect(created.key).toMatch(/^wft_[A-Za-z0-9_-]{32}$/);
    expect(created.key!.startsWith(created.prefix)).toBe(true);

    const stored = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(created.id).first<Record<string, string>>();
    expect(Object.values(stored!)).not.toContain(created.key);

    const list = await (await call("/api/keys", { key: devKeys.boss })).json<{ keys: KeyBody[] }>();
    const listed = list.keys.find((k) => k.id === created.id)!;
    expect(listed.prefix).toBe(created.prefix);
    expect(listed).not.toHaveProperty("key");
    expect(JSON.stringify(list)).not.toContain(created.key);

    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(200);
  });

  it("records a key's use when it was last recorded more than 10 minutes ago, not on every check", async () => {
    const created = await (
      await call("/api/keys", { method: "POST", key: devKeys.boss, body: JSON.stringify({ name: "recorded" }) })
    ).json<KeyBody>();
    const lastUsed = async () =>
      (
        await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?1")
          .bind(created.id)
          .first<{ last_used_at: string | null }>()
      )?.last_used_at;
    const callWithoutCache = async () => {
      apiKeyCache.forgetTenant("t-jinxiu");
      expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(200);
    };
    expect(await lastUsed()).toBeNull();
    await callWithoutCache();
    await vi.waitFor(async () => expect(await lastUsed()).not.toBeNull());
    const setTo = (sql: string) =>
      env.DB.prepare(`UPDATE api_keys SET last_used_at = ${sql} WHERE id = ?1`).bind(created.id).run();
    await setTo("strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-9 minutes')");
    const nineMinutesAgo = await lastUsed();
    await callWithoutCache();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastUsed()).toBe(nineMinutesAgo);
    await setTo("strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-11 minutes')");
    const elevenMinutesAgo = await lastUsed();
    await callWithoutCache();
    await vi.waitFor(async () => expect(await lastUsed()).not.toBe(elevenMinutesAgo));
    expect(Date.now() - Date.parse((await lastUsed()) as string)).toBeLessThan(60_000);
  });

  it("revokes a key so that it is refused afterwards", async () => {
    const created = await (
      await call("/api/keys", { method: "POST", key: devKeys.boss, body: JSON.stringify({ name: "temporary" }) })
    ).json<KeyBody>();
    const revoked = await call(`/api/keys/${created.id}`, { method: "DELETE", key: devKeys.boss });
    expect(revoked.status).toBe(200);
    expect((await revoked.json<KeyBody>()).revoked_at).toBeTruthy();
    expect((await call("/api/knowledge-bases", { key: created.key })).status).toBe(401);
  });

  it("lets an admin create a key for a staff member, which signs in as that staff member", async () => {
    const res = await call("/api/keys", {
      method: "POST",
      key: devKeys.admin,
      body: JSON.stringify({ name: "for Li", user_id: "u-staff" }),
    });
    expect(res.status).toBe(201);
    const { key } = await res.json<KeyBody>();
    const trees = await call("/api/consult/trees", {
      method: "PUT",
      key,
      body: JSON.stringify({ file_name: "x.json", content: "{}" }),
    });
    expect(trees.status).toBe(403);
  });

  it("refuses to create a key for a user of another workshop", async () => {
    const res = await call("/api/keys", {
      method: "POST",
      key: devKeys.admin,
      body: JSON.stringify({ name: "sneaky", user_id: "u-other-boss" }),
    });
    expect(res.status).toBe(404);
  });

  it("cannot revoke or list another workshop's keys", async () => {
    const res = await call("/api/keys/k-u-boss", { method: "DELETE", key: devKeys.otherBoss });
    expect(res.status).toBe(404);
    expect((await call("/api/knowledge-bases", { key: devKeys.boss })).status).toBe(200);
    const list = await (await call("/api/keys", { key: devKeys.otherBoss })).json<{ keys: KeyBody[] }>();
    expect(list.keys.map((k) => k.id)).toEqual(["k-u-other-boss"]);
  });

  it("answers a body that fails validation with 400 naming the field", async () => {
    const res = await call("/api/keys", { method: "POST", key: devKeys.boss, body: JSON.stringify({ name: "" }) });
    expect(res.status).toBe(400);
    const body = await res.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toContain("name");
  });
});

describe("no key for a role above one's own, and others' keys are an admin's business", () => {
  const create = (key: string, body: Record<string, unknown>) =>
    call("/api/keys", { method: "POST", key, body: JSON.stringify({ name: "x", ...body }) });

  it("refuses a boss a key for the workshop's admin, and never shows one", async () => {
    const res = await create(devKeys.boss, { user_id: "u-admin" });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).not.toMatch(/wft_/);
    expect(text).toContain("Only an admin");
  });

  it("refuses a boss a key for a staff member, whose private consultations it would open", async () => {
    const res = await create(devKeys.boss, { user_id: "u-staff" });
    expect(res.status).toBe(403);
  });

  it("refuses a staff member a key for a colleague or their boss", async () => {
    expect((await create(devKeys.staff, { user_id: "u-staff2" })).status).toBe(403);
    expect((await create(devKeys.staff, { user_id: "u-boss" })).status).toBe(403);
  });

  it("lets anyone create their own key, naming themselves or not, with their own role", async () => {
    for (const body of [{}, { user_id: "u-staff" }]) {
      const res = await create(devKeys.staff, body);
      expect(res.status).toBe(201);
      const { key, user_id } = await res.json<KeyBody & { user_id: string }>();
      expect(user_id).toBe("u-staff");
      expect((await call("/api/knowledge-bases", { method: "POST", key, body: JSON.stringify({ name: "n" }) })).status).toBe(403);
    }
  });

  it("shows a boss only their own keys, and an admin the whole workshop's", async () => {
    const boss = await (await call("/api/keys", { key: devKeys.boss })).json<{ keys: { user_id: string }[] }>();
    expect(new Set(boss.keys.map((k) => k.user_id))).toEqual(new Set(["u-boss"]));
    const admin = await (await call("/api/keys", { key: devKeys.admin })).json<{ keys: { user_id: string }[] }>();
    expect(new Set(admin.keys.map((k) => k.user_id))).toEqual(new Set(["u-admin", "u-boss", "u-staff", "u-staff2"]));
  });

  it("names each key's owner and the role it acts with, in lists and in what a create or revoke returns", async () => {
    type Owned = KeyBody & { user_id: string; user_name: string; role: string };
    const admin = await (await call("/api/keys", { key: devKeys.admin })).json<{ keys: Owned[] }>();
    const owners = new Map(admin.keys.map((k) => [k.user_id, { user_name: k.user_name, role: k.role }]));
    expect(owners.get("u-staff")).toEqual({ user_name: "李娟", role: "staff" });
    expect(owners.get("u-boss")).toEqual({ user_name: "王老板", role: "boss" });
    const created = await (await create(devKeys.staff, { name: "phone" })).json<Owned>();
    expect(created).toMatchObject({ user_id: "u-staff", user_name: "李娟", role: "staff" });
    const revoked = await (await call(`/api/keys/${created.id}`, { method: "DELETE", key: devKeys.staff })).json<Owned>();
    expect(revoked).toMatchObject({ user_name: "李娟", role: "staff" });
    expect(revoked.revoked_at).not.toBeNull();
  });

  it("does not let a boss revoke the admin's or a staff member's key, and they keep working", async () => {
    const adminsKey = await (await create(devKeys.admin, {})).json<KeyBody>();
    const staffKey = await (await create(devKeys.staff, {})).json<KeyBody>();
    for (const target of [adminsKey, staffKey]) {
      const res = await call(`/api/keys/${target.id}`, { method: "DELETE", key: devKeys.boss });
      expect(res.status).toBe(404);
      expect((await call("/api/knowledge-bases", { key: target.key })).status).toBe(200);
    }
  });

  it("lets an admin revoke a staff member's key, and a staff member their own", async () => {
    const first = await (await create(devKeys.staff, {})).json<KeyBody>();
    const second = await (await create(devKeys.staff, {})).json<KeyBody>();
    expect((await call(`/api/keys/${first.id}`, { method: "DELETE", key: devKeys.admin })).status).toBe(200);
    expect((await call(`/api/keys/${second.id}`, { method: "DELETE", key: devKeys.staff })).status).toBe(200);
    expect((await call("/api/knowledge-bases", { key: first.key })).status).toBe(401);
    expect((await call("/api/knowledge-bases", { key: second.key })).status).toBe(401);
  });
});

describe("key prefixes", () => {
  it("shows 12 characters of a generated key and at most a third of any key", () => {
    const generated = generateApiKey();
    expect(visiblePrefix(generated)).toBe(generated.slice(0, 12));
    for (const key of [devKeys.boss, "abcdef", "ab", "x".repeat(20)]) {
      expect(visiblePrefix(key).length).toBeLessThanOrEqual(Math.floor(key.length / 3));
      expect(key.startsWith(visiblePrefix(key))).toBe(true);
    }
  });

  it("never lists a short development key whole", async () => {
    const res = await call("/api/keys", { key: devKeys.admin });
    const text = await res.text();
    for (const key of [devKeys.admin, devKeys.boss, devKeys.staff, devKeys.staff2]) expect(text).not.toContain(key);
    const { keys } = JSON.parse(text) as { keys: { id: string; prefix: string }[] };
    expect(keys.find((k) => k.id === "k-u-boss")?.prefix).toBe("dev-");
  });
});
