import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashApiKey, visiblePrefix } from "../../src/auth/api-keys.ts";
import { createWebSession } from "../../src/auth/web-sessions.ts";
import { configFor } from "../../src/config.ts";
import { servicesFor } from "../../src/services.ts";
import { deleteTenant } from "../../src/tenants.ts";
import { signIn as signInAs } from "../chat/sign-in.ts";
import { keys as devKeys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { fakeOAuth, SECURE } from "./fake-oauth.ts";
import { installFakeNetwork } from "./fake-upstream.ts";

const oauth = fakeOAuth();

beforeAll(() => {
  installFakeNetwork(oauth.handler);
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** A workshop of its own with an admin and a boss key, and the boss's browser session. */
async function newWorkshop(id: string) {
  const statements = [env.DB.prepare("INSERT INTO tenants (id, name) VALUES (?1, ?1)").bind(id)];
  for (const role of ["admin", "boss"]) {
    const key = `${id}-${role}-key`;
    statements.push(
      env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES (?1, ?2, ?3, ?3)").bind(`${id}-${role}`, id, role),
      env.DB.prepare(
        "INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (?1, ?2, ?3, 'test', ?4, ?5)",
      ).bind(`k-${id}-${role}`, id, `${id}-${role}`, visiblePrefix(key), await hashApiKey(key)),
    );
  }
  await env.DB.batch(statements);
  const user = { id: `${id}-boss`, name: "boss", role: "boss" as const, tenant_id: id, tenant_name: id };
  const session = `weft_session=${await createWebSession({ db: env.DB, user })}`;
  return { admin: `${id}-admin-key`, boss: `${id}-boss-key`, session };
}

describe("deleting a workshop", () => {
  it("removes its registered MCP servers, sealed secrets included", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO tenants (id, name) VALUES ('t-gone', 'gone')"),
      env.DB.prepare(
        "INSERT INTO mcp_servers (id, tenant_id, name, url, headers_sealed) VALUES ('mcp_gone', 't-gone', 'gone', 'https://x.example.com/mcp', 'v1.a.b')",
      ),
    ]);
    await deleteTenant(servicesFor(env, configFor(env), { id: "t-gone" }, { origin: "http://weft.test" }).search);
    expect(await env.DB.prepare("SELECT id FROM mcp_servers WHERE tenant_id = 't-gone'").first()).toBeNull();
  });

  it("revokes the OAuth tokens of each of its servers at their provider, and nobody else's", async () => {
    const keys = await newWorkshop("t-revoking");
    // Each server is signed in to from its own workshop's boss's browser.
    const signIn = async (name: string, key: string, session: string) => {
      const created = await call("/api/mcp/servers", {
        method: "POST",
        key,
        body: JSON.stringify({ name, url: SECURE, auth: "oauth" }),
      });
      const { sign_in } = (await created.json()) as { sign_in: { authorization_url: string } };
      const provider = await fetch(sign_in.authorization_url, { redirect: "manual" });
      const callback = new URL(provider.headers.get("Location") ?? "");
      expect((await call(`${callback.pathname}${callback.search}`, { headers: { Cookie: session } })).status).toBe(200);
    };
    await signIn("first", keys.boss, keys.session);
    await signIn("second", keys.boss, keys.session);
    const ours = new Set([...oauth.state.access, ...oauth.state.refresh]);
    expect(ours.size).toBe(4);
    await signIn("neighbour", devKeys.boss, await signInAs("boss", "boss123"));

    const res = await call("/api/workshop?confirm=t-revoking", { method: "DELETE", key: keys.admin });
    expect(res.status).toBe(200);
    expect(oauth.state.revoked).toHaveLength(4);
    expect(new Set(oauth.state.revoked)).toEqual(ours);
    const neighbour = (await call("/api/mcp/servers", { key: devKeys.boss }).then((r) => r.json())) as {
      servers: { name: string; health: { status: string } }[];
    };
    const kept = neighbour.servers.find((s) => s.name === "neighbour");
    expect(kept?.health.status).toBe("ok");
  });

  it("still deletes a server whose tokens cannot be read or revoked", async () => {
    const keys = await newWorkshop("t-unreachable");
    await env.DB.prepare(
      "INSERT INTO mcp_servers (id, tenant_id, name, url, auth_type, oauth_sealed) VALUES ('mcp_unreach', 't-unreachable', 'x', 'https://down.example.com/mcp', 'oauth', 'v1.not.sealed')",
    ).run();
    const res = await call("/api/workshop?confirm=t-unreachable", { method: "DELETE", key: keys.admin });
    expect(res.status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM mcp_servers WHERE tenant_id = 't-unreachable'").first()).toBeNull();
  });
});
