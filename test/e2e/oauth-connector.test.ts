// The connector flow a person goes through when they add Weft to Claude, ChatGPT or VS Code by its
// URL: the MCP SDK's own OAuth client against `npm run dev`, the person signing in and consenting
// in Debian's Chromium, then the client acting as them until they revoke it in the settings.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MemoryOAuthClient } from "../oauth/memory-client.ts";
import { type Browser, launchBrowser } from "./browser.ts";

const baseUrl = inject("baseUrl");
const logFile = inject("logFile");
// Nothing listens here: Chromium's arrival at the callback is caught before it leaves the browser.
const REDIRECT_URI = "http://127.0.0.1:9/oauth/callback";

const transport = (state: MemoryOAuthClient) =>
  new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { authProvider: state });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser({ width: 1280, height: 900 }, "oauth-connector");
});
afterAll(async () => {
  await browser?.close();
});

describe("Weft as a connector", () => {
  it("connects a client that knows only the URL, acts as the person, and stops at once when revoked", async () => {
    const state = new MemoryOAuthClient(REDIRECT_URI, { client_name: "E2E Agent" });
    const first = transport(state);
    await expect(new Client({ name: "e2e-agent", version: "1.0.0" }).connect(first)).rejects.toThrow(/nauthorized/);
    expect(state.authorizationUrl?.origin).toBe(baseUrl);

    const { page, context, shot } = browser;
    let code: string | null = null;
    await context.route(`${REDIRECT_URI}**`, (route) => {
      code = new URL(route.request().url()).searchParams.get("code");
      return route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" });
    });
    await page.goto(state.authorizationUrl!.href);
    await page.getByRole("heading", { name: "连接到 Weft" }).waitFor();
    await page.getByLabel("用户名").fill("boss");
    await page.getByLabel("密码").fill("boss123");
    await shot("sign-in");
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByRole("heading", { name: "E2E Agent 想以你的身份使用 Weft" }).waitFor();
    await page.getByText("你已登录为 王老板").waitFor();
    await page.getByLabel(/读取并准备写入/).check();
    await shot("consent");
    await page.getByRole("button", { name: "允许" }).click();
    await page.getByText("back at the client").waitFor();
    expect(code).toBeTruthy();

    await first.finishAuth(code!);
    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(transport(state));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("prepare_order");
    const orders = await client.callTool({ name: "query_orders", arguments: { limit: 5 } });
    expect(orders.isError).toBeFalsy();

    // The person finds the app in the settings (already signed in from the consent) and revokes it.
    await page.goto(baseUrl);
    await page.getByRole("button", { name: "设置" }).click();
    const row = page.locator(".connected-clients li", { hasText: "E2E Agent" });
    await row.waitFor();
    await shot("settings");
    await row.getByRole("button", { name: "撤销" }).click();
    await row.waitFor({ state: "detached" });
    await expect(client.listTools()).rejects.toThrow();
    await client.close();

    const log = readFileSync(logFile, "utf8");
    for (const secret of [code!, state.saved!.access_token, state.saved!.refresh_token!, state.verifier]) {
      expect(log).not.toContain(secret);
    }
  });
});
