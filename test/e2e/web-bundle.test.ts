// What the browser UI costs a phone on first load, measured in Chromium against `npm run dev`: the
// scripts and stylesheets each screen fetches (gzip bytes), under a budget so that they cannot grow
// back unnoticed; and that the chat still renders Markdown (tables, lists, links, code).
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
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

async function signInByApi(page: Page) {
  const res = await page.context().request.post(`${baseUrl}/api/auth/login`, {
    data: { username: "boss", password: "boss123" },
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
    afterReady,
  }: { signedIn?: boolean; afterReady?: (page: Page, shot: Browser["shot"]) => Promise<void> } = {},
): Promise<Fetched[]> {
  const browser = await launchBrowser({ width: 375, height: 740 }, "bundle");
  try {
    const { page } = browser;
    if (signedIn) await signInByApi(page);
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

describe("the browser UI's first load", () => {
  it("measures the sign-in screen, the chat, a conversation in Markdown and the settings page", async () => {
    await firstLoad("sign-in screen", "/", (page) => page.getByRole("heading", { name: "登录 Weft" }).waitFor());
    await firstLoad("chat (new conversation)", "/", composer, { signedIn: true });
    await firstLoad(
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
          expect(await answer.locator("blockquote").textContent()).toContain("停线");
          expect(await answer.locator('[data-streamdown="link"]').textContent()).toBe("质量手册");
          expect(await answer.locator("pre code").textContent()).toContain("上领子");
        },
      },
    );
    await firstLoad("settings", "/", composer, {
      signedIn: true,
      afterReady: async (page) => {
        await page.getByRole("button", { name: "设置" }).click();
        await page.getByRole("heading", { name: "外部 MCP 服务器" }).waitFor();
      },
    });
  });
});
