// A provider's return link (an MCP server's OAuth sign-in) opened in Debian's Chromium by someone
// who cannot finish it: staff, whose settings have no MCP servers, are told why above the chat, in the UI's
// language, once; a browser signed in to nobody is told on the sign-in form.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type OAuthServer, startOAuthServer } from "../../scripts/mcp-test-servers.ts";
import { type Browser, launchBrowser } from "./browser.ts";

const baseUrl = inject("baseUrl");
const run = Date.now().toString(36);

const NOT_YOURS_ZH =
  "只有这个服务器所属工作坊的老板才能完成它的登录，所以没有做任何更改。请把登录链接交给老板，由老板登录 Weft 后打开。";
const NOT_YOURS_EN =
  "Only a boss of the workshop this server belongs to can finish its sign-in, so nothing was changed. Pass the sign-in link to a boss, who opens it signed in to Weft.";
const EXPIRED_ZH = "这个登录链接已失效或已用过，请重新登录。";

let provider: OAuthServer;
let browser: Browser;
beforeAll(async () => {
  provider = await startOAuthServer();
  browser = await launchBrowser({ width: 390, height: 760 }, "sign-in-return");
});
afterAll(async () => {
  await browser?.close();
  await provider?.stop();
});

const asBoss = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, { ...init, headers: { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" } });

/** Registers an OAuth server as the boss; the link its provider (approving at once) sends a browser back with. */
async function returnLink(name: string): Promise<{ id: string; callback: string }> {
  const created = await asBoss("/api/mcp/servers", {
    method: "POST",
    body: JSON.stringify({ name, url: provider.url, auth: "oauth" }),
  });
  expect(created.status).toBe(201);
  const { id, sign_in } = (await created.json()) as { id: string; sign_in: { authorization_url: string } };
  const callback = (await fetch(sign_in.authorization_url, { redirect: "manual" })).headers.get("Location") ?? "";
  expect(callback.startsWith(`${baseUrl}/api/mcp/oauth/callback?`)).toBe(true);
  return { id, callback };
}

/** Signs in on the form the page shows, with the keyboard. */
async function signInOnForm(page: Page, username: string, password: string) {
  await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
  await page.getByLabel("用户名").fill(username);
  await page.getByLabel("密码").fill(password);
  await page.keyboard.press("Enter");
  await page.locator(".topbar").waitFor();
}

describe("a provider's return link opened by someone who cannot finish the sign-in", () => {
  it("tells staff above the chat, in the UI's language, once, and leaves the link to a boss", async () => {
    const { page, shot } = browser;
    const { id, callback } = await returnLink(`staff-link-${run}`);
    await page.goto(baseUrl);
    await signInOnForm(page, "staff", "staff123");

    await page.goto(callback);
    const notice = page.locator(".shell-notice span");
    await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toBe(NOT_YOURS_ZH);
    expect(await page.locator(".shell-notice").getAttribute("role")).toBe("status");
    expect(page.url()).toBe(`${baseUrl}/`);
    // Their settings hold no MCP servers, so they stay closed: the notice above the chat says it.
    expect(await page.locator(".settings").count()).toBe(0);
    await shot("1-staff-zh");
    await page.getByRole("button", { name: "Switch to English" }).click();
    await expect.poll(() => notice.textContent()).toBe(NOT_YOURS_EN);
    await shot("2-staff-en");
    await page.getByRole("button", { name: "切换到中文" }).click();

    // A reload does not say it again; the notice can also be dismissed.
    await page.reload();
    await page.locator(".topbar").waitFor();
    expect(await page.locator(".shell-notice").count()).toBe(0);
    await page.goto(callback);
    await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toBe(NOT_YOURS_ZH);
    await page.locator(".shell-notice").getByRole("button", { name: "关闭" }).click();
    expect(await page.locator(".shell-notice").count()).toBe(0);

    // Nothing was spent: the same link still finishes the sign-in for the workshop's boss.
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl },
      body: JSON.stringify({ username: "boss", password: "boss123" }),
    });
    const cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0] as string;
    expect((await fetch(callback, { headers: { Cookie: cookie } })).status).toBe(200);
    const server = (await (await asBoss(`/api/mcp/servers/${id}`)).json()) as { health: { status: string } };
    expect(server.health.status).toBe("ok");
    await page.getByRole("button", { name: "退出登录" }).click();
    await page.locator(".sign-in").waitFor();
  });

  it("tells a browser signed in to nobody that a made-up link is unknown, on the sign-in form", async () => {
    const { page, shot } = browser;
    await page.context().clearCookies();
    await page.goto(`${baseUrl}/api/mcp/oauth/callback?state=made-up&code=x`);
    await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
    await expect.poll(() => page.locator(".sign-in .notice").textContent()).toBe(EXPIRED_ZH);
    expect(page.url()).toBe(`${baseUrl}/`);
    await shot("3-signed-out-expired");
    // Whoever signs in next on this page is told too, staff above the chat.
    await signInOnForm(page, "staff", "staff123");
    await expect.poll(() => page.locator(".shell-notice span").textContent()).toBe(EXPIRED_ZH);
    await page.getByRole("button", { name: "退出登录" }).click();
    await page.locator(".sign-in").waitFor();
  });
});
