import { describe, expect, it } from "vitest";
import { hostAllowed, hostnameOf, originListed } from "../../src/auth/origin.ts";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const post = (headers: Record<string, string>) =>
  call("/mcp", {
    method: "POST",
    key: keys.staff,
    headers: { Accept: "application/json, text/event-stream", ...headers },
    body: listTools,
  });

describe("/mcp Host and Origin (DNS rebinding)", () => {
  it("refuses the rebinding pair, Host evil.example.com with Origin http://evil.example.com, with 403 before the key is read", async () => {
    const res = await call("/mcp", {
      method: "POST",
      headers: { Host: "evil.example.com", Origin: "http://evil.example.com", "Content-Type": "application/json" },
      body: listTools,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toBeNull();
    expect(await res.text()).toContain("ALLOWED_HOSTS");
  });

  it("refuses a foreign Host without any Origin, and a foreign Origin on a served host", async () => {
    expect((await post({ Host: "evil.example.com" })).status).toBe(403);
    expect((await post({ Host: "localhost:8787", Origin: "http://evil.example.com" })).status).toBe(403);
    expect((await post({ Host: "localhost.evil.example" })).status).toBe(403);
  });

  it("serves the configured hosts on any port, and browser pages on them", async () => {
    for (const host of ["localhost:8787", "127.0.0.1:9000", "[::1]:8787", "weft.test", "WEFT.test:443"]) {
      expect((await post({ Host: host })).status, host).toBe(200);
    }
    expect((await post({ Host: "localhost:8787", Origin: "http://localhost:6274" })).status).toBe(200);
    expect((await post({ Host: "127.0.0.1:8787", Origin: "http://127.0.0.1:8787" })).status).toBe(200);
  });

  it("reads hosts and origins strictly", () => {
    expect(hostnameOf("Localhost:8787")).toBe("localhost");
    expect(hostnameOf("[::1]:80")).toBe("[::1]");
    for (const bad of ["evil.example.com/path", "user@localhost", "localhost:99999999", ""])
      expect(hostnameOf(bad), bad).toBeNull();
    expect(hostAllowed(undefined, ["localhost"])).toBe(false);
    expect(hostAllowed("localhost", [])).toBe(false);
    const hosts = ["weft.example.com"];
    expect(originListed("https://weft.example.com", hosts, [])).toBe(true);
    expect(originListed("https://weft.example.com.evil.example", hosts, [])).toBe(false);
    expect(originListed("null", hosts, [])).toBe(false);
    expect(originListed("file://weft.example.com", hosts, [])).toBe(false);
    expect(originListed("http://localhost:6274", hosts, ["http://localhost:*"])).toBe(true);
  });
});
