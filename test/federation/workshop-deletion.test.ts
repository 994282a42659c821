import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { configFor } from "../../src/config.ts";
import { buildServices } from "../../src/services.ts";
import { deleteTenant } from "../../src/tenants.ts";

describe("deleting a workshop", () => {
  it("removes its registered MCP servers, sealed secrets included", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO tenants (id, name) VALUES ('t-gone', 'gone')"),
      env.DB.prepare(
        "INSERT INTO mcp_servers (id, tenant_id, name, url, headers_sealed) VALUES ('mcp_gone', 't-gone', 'gone', 'https://x.example.com/mcp', 'v1.a.b')",
      ),
    ]);
    await deleteTenant({ db: env.DB, backends: buildServices(env, configFor(env)).search.backends, tenantId: "t-gone" });
    expect(await env.DB.prepare("SELECT id FROM mcp_servers WHERE tenant_id = 't-gone'").first()).toBeNull();
  });
});
