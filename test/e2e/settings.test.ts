// The settings every signed-in person has, against `npm run dev` in Debian's Chromium at phone and
// desktop width: staff (李娟) see the apps they connected and their API keys, create a key (its
// secret shown once), choose who says yes to its writes and to an app's, and revoke both, without
// downloading the workshop's settings; a boss also sees the workshop's recent writes, how each was
// confirmed, and the preview its person saw.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser } from "./browser.ts";
import { signInAsBoss } from "./business-data.ts";
import { recordAssets } from "./first-load.ts";

const baseUrl = inject("baseUrl");
// Nothing listens here: Chromium's arrival at the callback is caught before it leaves the browser.
const REDIRECT_URI = "http://127.0.0.1:9/oauth/callback";
const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

let browser: Browser | undefined;
afterEach(async () => {
  // Every flow here runs under the page's Content-Security-Policy without breaking it.
  const violations = browser?.takeCspViolations() ?? [];
  await browser?.close();
  browser = undefined;
  expect(violations).toEqual([]);
});

/** Registers an OAuth client by Dynamic Client Registration, as a connector would. */
async function registerClient(name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/**
 * Connects an app for the person: Weft's sign-in and consent in the browser, up to the code coming
 * back. With `writes`, the person allows writes and chooses that the app asks them (`client`).
 */
async function connectApp(
  page: Page,
  appName: string,
  login: { username: string; password: string },
  { writes = false, shot }: { writes?: boolean; shot?: (name: string) => Promise<void> } = {},
) {
  const clientId = await registerClient(appName);
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const challenge = Buffer.from(digest).toString("base64url");
  const url = new URL("/oauth/authorize", baseUrl);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: "st-settings",
    scope: writes ? "weft:read weft:write" : "weft:read",
    resource: `${baseUrl}/mcp`,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }))
    url.searchParams.set(name, value);
  let code: string | null = null;
  await page.context().route(`${REDIRECT_URI}**`, (route) => {
    code = new URL(route.request().url()).searchParams.get("code");
    return route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" });
  });
  await page.goto(url.href);
  await page.getByRole("heading", { name: "连接到 Weft" }).waitFor();
  await page.getByLabel("用户名").fill(login.username);
  await page.getByLabel("密码").fill(login.password);
  await page.getByRole("button", { name: "登录" }).click();
  // The consent page explains each scope and asks who says yes to the app's writes, Weft's own pages first.
  await page.getByRole("group", { name: "它准备的写入由谁说“是”" }).waitFor();
  expect(await page.getByRole("radio", { name: /^我在 Weft 上确认/ }).isChecked()).toBe(true);
  expect(await page.locator("body").textContent()).toContain("weft:write");
  if (writes) await page.getByRole("radio", { name: /^应用问我/ }).check();
  await shot?.("0-consent");
  await page.getByRole("button", { name: "允许" }).click();
  await page.getByText("back at the client").waitFor();
  expect(code).toBeTruthy();
}

const keysOf = async (key: string) => fetch(`${baseUrl}/api/keys`, { headers: { Authorization: `Bearer ${key}` } });
const noWiderThan = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe("settings for staff", () => {
  for (const viewport of VIEWPORTS) {
    it(`shows 李娟 her connected apps and keys, and lets her create a key, choose who says yes to its writes and to an app's, and revoke both, at ${viewport.width} px`, async () => {
      browser = await launchBrowser(viewport, `settings-staff-${viewport.width}`);
      const { page, shot, context } = browser;
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
      const app = `李娟的助手 ${viewport.width}`;
      await connectApp(page, app, { username: "staff", password: "staff123" }, { writes: true, shot });

      // Signed in by the consent's sign-in: the chat, then settings, fetching none of the workshop's part.
      const assets = recordAssets(page);
      await page.goto(baseUrl);
      await expect.poll(() => page.locator(".topbar .who").textContent(), { timeout: 15_000 }).toContain("李娟");
      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "设置", level: 2 }).waitFor();
      const keys = page.locator(".api-keys");
      await keys.locator("li").first().waitFor();
      await page.waitForLoadState("networkidle");
      const fetched = (await assets.take()).map((f) => f.url);
      expect(fetched.some((url) => url.startsWith("/assets/settings-"))).toBe(true);
      expect(fetched.some((url) => url.startsWith("/assets/workshop-settings-"))).toBe(false);
      expect(await page.getByRole("heading", { name: "外部 MCP 服务器" }).count()).toBe(0);
      expect(await page.getByRole("heading", { name: "最近的写入" }).count()).toBe(0);
      // Her password first; the keys and apps for Cursor or Claude Code under 高级.
      expect(await page.locator(".settings-advanced").getByRole("heading", { name: "API 密钥" }).count()).toBe(1);

      // Her connected app, and her development key (its prefix only), as staff.
      const appRow = page.locator(".connected-clients li", { hasText: app });
      await appRow.waitFor();
      expect(await appRow.textContent()).toContain("读取并准备写入");
      expect(await appRow.getAttribute("data-confirm-by")).toBe("client");
      expect(await appRow.textContent()).toContain("相信你的 MCP 客户端");
      const devKey = keys.locator("li", { hasText: "dev-…" });
      expect(await devKey.textContent()).toContain("员工");
      expect(await page.locator("body").textContent()).not.toContain("dev-staff-key");
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);
      await shot("1-settings");

      // A new key, named and created with the keyboard: its secret once, copied, then gone.
      const name = `e2e ${viewport.width}-${Date.now() % 1_000_000}`;
      await page.getByLabel(/^新密钥的名称/).fill(name);
      await page.keyboard.press("Enter");
      const secretBox = page.getByLabel("新密钥", { exact: true });
      await secretBox.waitFor();
      const secret = await secretBox.inputValue();
      expect(secret).toMatch(/^wft_[A-Za-z0-9_-]{32}$/);
      await page.getByRole("button", { name: "复制" }).click();
      await page.getByRole("button", { name: "已复制" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await secretBox.scrollIntoViewIfNeeded();
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);
      await shot("2-new-key");
      await page.getByRole("button", { name: "我已保存" }).click();
      expect(await page.locator("body").textContent()).not.toContain(secret);

      const row = keys.locator("li", { hasText: name });
      expect(await row.textContent()).toContain(`${secret.slice(0, 12)}…`);
      expect(await row.textContent()).toContain("还没用过");
      expect(await row.getAttribute("data-confirm-by")).toBe("weft");
      const choice = row.getByRole("combobox", { name: "写入由谁说“是”" });
      expect(await choice.inputValue()).toBe("weft");
      expect(await row.textContent()).toContain("只相信 Weft 自己的确认卡片和确认页");

      // Its MCP client may ask her: chosen, told what it trusts, shown in the list, held by the server.
      await choice.selectOption("client");
      await expect.poll(() => row.getAttribute("data-confirm-by"), { timeout: 15_000 }).toBe("client");
      expect(await row.textContent()).toContain("相信你的 MCP 客户端会把预览如实给你看");
      expect(await row.textContent()).toContain("客户端问我");
      await page.reload();
      await page.getByRole("button", { name: "设置" }).click();
      await expect
        .poll(() => keys.locator("li", { hasText: name }).getAttribute("data-confirm-by"), { timeout: 15_000 })
        .toBe("client");
      expect(await page.locator("body").textContent()).not.toContain(secret);
      const listed = (await (await keysOf(secret)).json()) as { keys: { name: string; confirm_by: string }[] };
      expect(listed.keys.find((k) => k.name === name)?.confirm_by).toBe("client");
      await keys.locator("li", { hasText: name }).scrollIntoViewIfNeeded();
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);
      await shot("3-confirm-by");

      // The app's choice, changed back to Weft's own pages from its row.
      await appRow.getByRole("combobox", { name: "写入由谁说“是”" }).selectOption("weft");
      await expect.poll(() => appRow.getAttribute("data-confirm-by"), { timeout: 15_000 }).toBe("weft");

      // Revoked after asking once more: gone from the list, refused at once.
      const again = keys.locator("li", { hasText: name });
      await again.getByRole("button", { name: "撤销" }).click();
      await again.getByText(`撤销密钥“${name}”？`, { exact: false }).waitFor();
      await again.getByRole("button", { name: "撤销" }).click();
      await again.waitFor({ state: "detached" });
      expect((await keysOf(secret)).status).toBe(401);

      // And the app she connected: revoked, gone.
      await appRow.getByRole("button", { name: "撤销" }).click();
      await appRow.waitFor({ state: "detached" });
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);

      // The same in English.
      await page.getByRole("button", { name: "Switch to English" }).click();
      await page.getByRole("heading", { name: "API keys" }).waitFor();
      expect(await devKey.getByRole("combobox", { name: "Who says yes to writes" }).inputValue()).toBe("weft");
      expect(await devKey.textContent()).toContain("staff");
      expect(await devKey.textContent()).toContain("Trusts only Weft's own confirm card and page");
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);
      await shot("4-english");
      await page.getByRole("button", { name: "切换到中文" }).click();
    });
  }
});

describe("settings for a boss", () => {
  for (const viewport of VIEWPORTS) {
    it(`lists the workshop's recent writes with how each was confirmed, a card's included, at ${viewport.width} px`, async () => {
      browser = await launchBrowser(viewport, `settings-boss-${viewport.width}`);
      const { page, shot } = browser;
      await signInAsBoss(page, baseUrl);

      // A piece record confirmed on the chat's card.
      const quantity = 300 + (viewport.width % 89);
      await page.getByRole("combobox", { name: "消息" }).fill(`给张三记今天上领子 ${quantity} 件`);
      await page.keyboard.press("Enter");
      const card = page.locator(".confirm-card").last();
      await card.waitFor({ timeout: 30_000 });
      await card.getByRole("button", { name: "确认" }).click();
      await expect.poll(() => card.getAttribute("data-status"), { timeout: 15_000 }).toBe("confirmed");
      const actionId = await card.getAttribute("data-action-id");

      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "最近的写入" }).waitFor();
      const entry = page.locator(`.recent-writes li[data-action-id="${actionId}"]`);
      await entry.waitFor();
      expect(await entry.getAttribute("data-via")).toBe("card");
      const text = await entry.textContent();
      expect(text).toContain(`计件登记：张三 上领子 ${quantity} 件`);
      expect(text).toContain("王老板");
      expect(await entry.locator(".write-via").textContent()).toBe("卡片");
      // The preview 王老板 saw on the card, word for word, with its digest.
      await entry.getByText("当时看到的预览").click();
      const shown = entry.locator(".shown-text");
      await shown.waitFor();
      expect(await shown.textContent()).toContain(`计件登记：张三 上领子 ${quantity} 件`);
      expect(await shown.textContent()).toContain(`数量：${quantity} 件`);
      expect(await entry.locator(".shown-digest").textContent()).toMatch(/^SHA-256：[0-9a-f]{64}$/);
      // The boss's own sections are there too, beside the workshop's; external MCP servers under 高级, last.
      await page.getByRole("heading", { name: "外部 MCP 服务器" }).waitFor();
      await page.getByRole("heading", { name: "API 密钥" }).waitFor();
      expect(await page.locator(".settings-advanced").getByRole("heading", { name: "外部 MCP 服务器" }).count()).toBe(1);
      expect(await page.locator(".settings-advanced").getByRole("heading", { name: "API 密钥" }).count()).toBe(0);
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);
      await shot("1-recent-writes");

      await page.getByRole("button", { name: "Switch to English" }).click();
      await page.getByRole("heading", { name: "Recent writes" }).waitFor();
      expect(await entry.locator(".write-via").textContent()).toBe("card");
      expect(await noWiderThan(page)).toBeLessThanOrEqual(viewport.width);
      await shot("2-recent-writes-en");
      await page.getByRole("button", { name: "切换到中文" }).click();
    });
  }
});

describe("settings for an admin", () => {
  it("shows the workshop's keys with whose each is, and lets the admin let agents confirm with a staff member's key", async () => {
    // A key of 李娟's, made with her development key.
    const name = `staff agent ${Date.now() % 1_000_000}`;
    const made = await fetch(`${baseUrl}/api/keys`, {
      method: "POST",
      headers: { Authorization: "Bearer dev-staff-key", "Content-Type": "application/json" },
      body: JSON.stringify({ name }),
    });
    expect(made.status).toBe(201);
    const { key: secret } = (await made.json()) as { key: string };

    browser = await launchBrowser({ width: 1280, height: 800 }, "settings-admin-1280");
    const { page, shot } = browser;
    await page.goto(baseUrl);
    await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
    await page.getByLabel("用户名").fill("admin");
    await page.getByLabel("密码").fill("admin123");
    await page.keyboard.press("Enter");
    await page.locator(".topbar").waitFor();
    await page.getByRole("button", { name: "设置" }).click();
    const row = page.locator(".api-keys li", { hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain("李娟");
    expect(await page.locator(".api-keys li", { hasText: "王老板" }).count()).toBeGreaterThan(0);
    expect(await page.locator("section[aria-labelledby='keys-title']").textContent()).toContain("本车间所有人的密钥");

    await row.getByRole("combobox", { name: "写入由谁说“是”" }).selectOption("agent");
    await expect.poll(() => row.getAttribute("data-confirm-by"), { timeout: 15_000 }).toBe("agent");
    expect(await row.textContent()).toContain("相信代理");
    const listed = (await (await keysOf(secret)).json()) as {
      keys: { name: string; confirm_by: string; agent_confirm: boolean }[];
    };
    expect(listed.keys.find((k) => k.name === name)).toMatchObject({ confirm_by: "agent", agent_confirm: true });
    await row.scrollIntoViewIfNeeded();
    await shot("1-workshop-keys");
    await row.getByRole("button", { name: "撤销" }).click();
    await row.getByRole("button", { name: "撤销" }).click();
    await row.waitFor({ state: "detached" });
    expect((await keysOf(secret)).status).toBe(401);
  });
});
