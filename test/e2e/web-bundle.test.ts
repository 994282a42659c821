// What the browser UI costs a phone on first load, measured in Chromium against `npm run dev`: the
// scripts and stylesheets each screen fetches (gzip bytes), under the budgets of
// scripts/web-budget.ts so that they cannot grow back unnoticed; that the chat still renders
// Markdown (tables, lists, links, code); and what happens when a lazily loaded chunk cannot be had.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BUDGET_BYTES } from "../../scripts/web-budget.ts";
import { type Browser, launchBrowser } from "./browser.ts";
import { type Fetched, gzipTotal, recordAssets } from "./first-load.ts";

const baseUrl = inject("baseUrl");

/** A stored answer with every kind of Markdown the chat shows, served in place of a real conversation. */
const MARKDOWN = [
  "## 首件检验",
  "",
  "每批开工前，**先做一件**交质检确认：",
  "",
  "1. 按纸样核对尺寸",
  "2. 检查线迹，*不得跳针*",
  "3. 记录到 `首件记录表`",
  "",
  "- 领子：左右对称",
  "- 袖口：宽度误差 ≤ 0.5 cm",
  "",
  "| 部位 | 标准 | 允差 |",
  "| --- | --- | --- |",
  "| 衣长 | 70 cm | ±1 |",
  "| 胸围 | 108 cm | ±1.5 |",
  "",
  "> 不合格时停线，通知班长。",
  "",
  "<div>换针前先停机</div>",
  "",
  '记录时<img src="x" onerror="window.__fromAnswer = 1">不用图片。',
  "",
  "详见 [质量手册](https://example.com/quality)。",
  "",
  "```",
  "工序 上领子 单价 0.35",
  "```",
].join("\n");
const CHAT_ID = "markdown-sample";

function log(label: string, fetched: Fetched[]) {
  const lines = fetched.map((f) => `  ${f.url}  ${f.bytes} B, gzip ${f.gzip} B`);
  console.log(`${label}: ${gzipTotal(fetched)} B gzip\n${lines.join("\n")}`);
}

async function signInByApi(page: Page, login = { username: "boss", password: "boss123" }) {
  const res = await page.context().request.post(`${baseUrl}/api/auth/login`, {
    data: login,
    headers: { Origin: baseUrl },
  });
  expect(res.status()).toBe(200);
}

/** Opens `path` in a fresh browser (empty cache) and returns what it fetched once `ready` holds and the network is idle. */
async function firstLoad(
  label: string,
  path: string,
  ready: (page: Page) => Promise<void>,
  {
    signedIn = false,
    login,
    afterReady,
  }: {
    signedIn?: boolean;
    login?: { username: string; password: string };
    afterReady?: (page: Page, shot: Browser["shot"]) => Promise<void>;
  } = {},
): Promise<Fetched[]> {
  const browser = await launchBrowser({ width: 375, height: 740 }, "bundle");
  try {
    const { page } = browser;
    if (signedIn) await signInByApi(page, login);
    await routeMarkdownSample(page);
    const assets = recordAssets(page);
    await page.goto(`${baseUrl}${path}`);
    await ready(page);
    await afterReady?.(page, browser.shot);
    await page.waitForLoadState("networkidle");
    const fetched = await assets.take();
    log(label, fetched);
    return fetched;
  } finally {
    await browser.close();
  }
}

/** Serves the Markdown sample as a stored conversation: the UI renders it through its real path. */
function routeMarkdownSample(page: Page) {
  return page.route(`**/api/chats/${CHAT_ID}`, (route) =>
    route.fulfill({
      json: {
        id: CHAT_ID,
        title: "首件检验",
        messages: [
          { id: "u1", role: "user", parts: [{ type: "text", text: "首件检验怎么做？" }] },
          { id: "a1", role: "assistant", parts: [{ type: "text", text: MARKDOWN, state: "done" }] },
        ],
      },
    }),
  );
}

const composer = (page: Page) => page.getByRole("combobox", { name: "消息" }).waitFor();

const chunk = (fetched: Fetched[], name: string) => fetched.some((f) => f.url.startsWith(`/assets/${name}-`));

describe("the browser UI's first load", () => {
  it("fetches no more for the sign-in screen and a new chat than the chat's budget, and neither Markdown nor settings", async () => {
    const signIn = await firstLoad("sign-in screen", "/", (page) => page.getByRole("heading", { name: "登录 Weft" }).waitFor());
    const chat = await firstLoad("chat (new conversation)", "/", composer, { signedIn: true });
    for (const fetched of [signIn, chat]) {
      expect(gzipTotal(fetched)).toBeLessThanOrEqual(BUDGET_BYTES.chat);
      expect(chunk(fetched, "markdown")).toBe(false);
      expect(chunk(fetched, "settings")).toBe(false);
    }
  });

  it("renders an answer's Markdown (headings, lists, a table, emphasis, a quote, a link, code) within its budget", async () => {
    const fetched = await firstLoad(
      "chat (a conversation in Markdown)",
      `/#chat=${CHAT_ID}`,
      (page) => page.locator("article.from-assistant .markdown table").waitFor(),
      {
        signedIn: true,
        afterReady: async (page, shot) => {
          const answer = page.locator("article.from-assistant .markdown");
          await shot("markdown");
          expect(await answer.locator("h2").textContent()).toBe("首件检验");
          expect(await answer.locator("ol > li").count()).toBe(3);
          expect(await answer.locator("ul > li").count()).toBe(2);
          expect(await answer.locator("table tbody tr").count()).toBe(2);
          expect(await answer.locator('[data-streamdown="strong"]').textContent()).toBe("先做一件");
          const bold = answer.locator('[data-streamdown="strong"]');
          expect(await bold.evaluate((el) => getComputedStyle(el).fontWeight)).toBe("600");
          expect(await answer.locator("em").textContent()).toBe("不得跳针");
          expect(await answer.locator("blockquote").textContent()).toContain("停线");
          expect(await answer.locator('[data-streamdown="link"]').textContent()).toBe("质量手册");
          expect(await answer.locator("pre code").textContent()).toContain("上领子");
          expect(await answer.textContent()).not.toContain("|");
          // HTML in an answer is shown as the text it is: never markup, and never dropped with its words.
          expect(await answer.textContent()).toContain("<div>换针前先停机</div>");
          expect(await answer.textContent()).toContain('<img src="x" onerror="window.__fromAnswer = 1">');
          expect(await answer.locator("img, div:has-text('换针前先停机'):not(.markdown)").count()).toBe(0);
          expect(await page.evaluate(() => "__fromAnswer" in window)).toBe(false);
        },
      },
    );
    expect(gzipTotal(fetched)).toBeLessThanOrEqual(BUDGET_BYTES.conversation);
    expect(chunk(fetched, "settings")).toBe(false);
  });

  it("loads settings only when someone opens them, the workshop's part only for a boss, within their budgets", async () => {
    const boss = await firstLoad("settings (boss)", "/", composer, {
      signedIn: true,
      afterReady: async (page) => {
        await page.getByRole("button", { name: "设置" }).click();
        await page.getByRole("heading", { name: "外部 MCP 服务器" }).waitFor();
      },
    });
    expect(gzipTotal(boss)).toBeLessThanOrEqual(BUDGET_BYTES.workshopSettings);
    expect(chunk(boss, "settings")).toBe(true);
    expect(chunk(boss, "workshop-settings")).toBe(true);
    const staff = await firstLoad("settings (staff)", "/", composer, {
      signedIn: true,
      login: { username: "staff", password: "staff123" },
      afterReady: async (page) => {
        await page.getByRole("button", { name: "设置" }).click();
        await page.getByRole("heading", { name: "API 密钥" }).waitFor();
      },
    });
    expect(gzipTotal(staff)).toBeLessThanOrEqual(BUDGET_BYTES.settings);
    expect(chunk(staff, "settings")).toBe(true);
    expect(chunk(staff, "workshop-settings")).toBe(false);
  });
});

describe("a lazily loaded chunk that cannot be fetched", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser({ width: 375, height: 740 }, "bundle-offline");
    await signInByApi(browser.page);
    await routeMarkdownSample(browser.page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("leaves an answer readable as plain text when the Markdown renderer does not arrive", async () => {
    const { page } = browser;
    await page.route("**/assets/markdown-*", (route) => route.abort("internetdisconnected"));
    await page.goto(`${baseUrl}/#chat=${CHAT_ID}`);
    const answer = page.locator("article.from-assistant .plain-text");
    await answer.waitFor();
    expect(await answer.textContent()).toContain("| 衣长 | 70 cm | ±1 |");
    expect(await page.locator("article.from-assistant table").count()).toBe(0);

    // The answer says why it is unformatted, and its reload brings the formatting back once the network does.
    const hint = page.locator("article.from-assistant .format-failed");
    expect(await hint.textContent()).toContain("排版没有加载");
    await hint.scrollIntoViewIfNeeded();
    await browser.shot("markdown-failed");
    await page.unroute("**/assets/markdown-*");
    await hint.getByRole("button", { name: "重新加载" }).click();
    await page.locator("article.from-assistant .markdown table").waitFor();
    expect(await page.locator("article.from-assistant .format-failed").count()).toBe(0);
  });

  it("shows a notice with a reload button in place of settings that do not arrive", async () => {
    const { page, shot } = browser;
    await page.route("**/assets/settings-*", (route) => route.abort("internetdisconnected"));
    await page.goto(baseUrl);
    await composer(page);
    await page.getByRole("button", { name: "设置" }).click();
    const notice = page.getByRole("alert");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("页面的这一部分没有加载成功");
    await shot("settings-failed");
    await page.unroute("**/assets/settings-*");
    await notice.getByRole("button", { name: "重新加载" }).click();
    await page.getByRole("button", { name: "设置" }).click();
    await page.getByRole("heading", { name: "外部 MCP 服务器" }).waitFor();
  });
});

describe("the static assets", () => {
  it("answers a chunk that is not there with a 404, never with the page, and lets a phone keep the ones that are", async () => {
    const html = await (await fetch(baseUrl)).text();
    const entry = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const script = await fetch(`${baseUrl}${entry}`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(baseUrl)).headers.get("cache-control") ?? "").not.toContain("immutable");

    const missing = await fetch(`${baseUrl}/assets/settings-gone1234.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type") ?? "").not.toContain("text/html");
    expect(await fetch(`${baseUrl}/_headers`).then((r) => r.status)).toBe(404);
  });
});

describe("the page's content security policy", () => {
  const IMAGE_HOST = "https://images.example";

  it("is sent with the page: no framing, no sniffing", async () => {
    const page = await fetch(baseUrl);
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toMatch(/img-src 'self' data: blob:;/);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("keeps an answer's image of another host from being fetched, and the UI itself breaks none of it", async () => {
    const browser = await launchBrowser({ width: 375, height: 740 }, "bundle-csp");
    try {
      const { page } = browser;
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __violations: string[] }).__violations = seen;
        document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      let imageRequests = 0;
      await page.route(`${IMAGE_HOST}/**`, (route) => {
        imageRequests += 1;
        return route.fulfill({ status: 200, contentType: "image/png", body: Buffer.alloc(0) });
      });
      await signInByApi(page);
      await page.route(`**/api/chats/${CHAT_ID}`, (route) =>
        route.fulfill({
          json: {
            id: CHAT_ID,
            title: "布样",
            messages: [
              { id: "u1", role: "user", parts: [{ type: "text", text: "布样是什么样的？" }] },
              {
                id: "a1",
                role: "assistant",
                parts: [{ type: "text", text: `见下图：\n\n![布样](${IMAGE_HOST}/cloth.png?who=reader)`, state: "done" }],
              },
            ],
          },
        }),
      );
      await page.goto(`${baseUrl}/#chat=${CHAT_ID}`);
      await page.locator("article.from-assistant .markdown").waitFor();
      await page.waitForLoadState("networkidle");
      expect(imageRequests).toBe(0);

      // A whole turn of the chat under the policy: the stream, its parser and the Markdown renderer.
      await page.goto(baseUrl);
      await composer(page);
      const box = page.getByRole("combobox", { name: "消息" });
      await box.fill("跳针怎么办");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator("article.from-assistant .markdown").count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await page.locator("button.send").waitFor({ timeout: 30_000 });
      const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
