// People and workshops as a new workshop lives them, against `npm run dev` in Debian's Chromium and
// without anyone running a command: a boss signs a workshop up on a phone, adds two staff members
// (one linked to a new employee record, one not yet), and sends each a one-time link; the first sets
// her password through it at desktop width, signs in, asks for her own pieces, changes her password,
// and is deactivated mid-session; the second is told to ask the boss until the boss links her.
import type { Page } from "playwright-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser } from "./browser.ts";

const baseUrl = inject("baseUrl");
const stamp = Date.now().toString(36);
const BOSS = { username: `liu-${stamp}`, password: "new-star-2026" };
const LIJUAN = { username: `lijuan-${stamp}`, first: "lijuan-first-1", second: "lijuan-second-2" };
const ZHANGMIN = { username: `zhangmin-${stamp}`, password: "zhangmin-pass-3" };

const browsers: Browser[] = [];
afterAll(async () => {
  for (const browser of browsers) {
    // Every page here runs under the page's Content-Security-Policy without breaking it.
    expect(browser.takeCspViolations()).toEqual([]);
    await browser.close();
  }
});

async function launch(viewport: { width: number; height: number }, label: string): Promise<Browser> {
  const browser = await launchBrowser(viewport, label);
  browsers.push(browser);
  return browser;
}

const noWiderThan = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const answers = (page: Page) => page.locator("article.from-assistant");

/** Asks the chat a question with the keyboard and returns the answer's text once it has ended. */
async function ask(page: Page, text: string): Promise<string> {
  const before = await answers(page).count();
  await page.getByRole("combobox", { name: "消息" }).fill(text);
  await page.keyboard.press("Enter");
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator("button.send").waitFor({ timeout: 30_000 });
  return (await answers(page).last().textContent()) ?? "";
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(baseUrl);
  await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
  await page.getByLabel("用户名").fill(username);
  await page.getByLabel("密码").fill(password);
  await page.keyboard.press("Enter");
  await page.locator(".topbar").waitFor();
}

/** The boss adds a person in Settings → 人员 and returns the set-password link shown once. */
async function addPerson(page: Page, name: string, username: string, employee: "new" | "none"): Promise<string> {
  await page.getByRole("button", { name: "添加人员" }).click();
  const form = page.getByRole("form", { name: "添加人员" });
  await form.getByLabel("姓名", { exact: true }).fill(name);
  await form.getByLabel(/^用户名/).fill(username);
  await form.getByLabel("角色").selectOption("staff");
  if (employee === "new") await form.getByLabel("员工档案").selectOption({ label: "新建员工档案（用此人的姓名）" });
  await form.getByRole("button", { name: "添加", exact: true }).click();
  const box = page.getByLabel("设置密码链接");
  await box.waitFor();
  const url = await box.inputValue();
  expect(url).toMatch(new RegExp(`^${baseUrl}/set-password#token=[A-Za-z0-9_-]{43}$`));
  return url;
}

describe("a new workshop, from sign-up to its people chatting with their own records", () => {
  let boss: Browser;
  let lijuanLink: string;
  let zhangminLink: string;

  it("signs a workshop up on a phone and signs its boss in, who finds the guide and an honest empty workshop", async () => {
    boss = await launch({ width: 375, height: 812 }, "people-boss");
    const { page, shot } = boss;
    await page.goto(baseUrl);
    await page.getByRole("link", { name: "还没有工作坊？创建一个" }).click();
    await page.getByRole("heading", { name: "创建工作坊" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sign-up");
    await page.getByLabel(/^工作坊名称/).fill("新星服装厂");
    await page.getByLabel("你的姓名").fill("刘老板");
    await page.getByLabel(/^用户名/).fill(BOSS.username.toUpperCase());
    await page.getByLabel(/^密码/).fill("12345678");
    await page.getByRole("button", { name: "创建工作坊" }).click();
    await page.getByText("这个密码太常见，最容易被猜到，请换一个。").waitFor();
    expect(await noWiderThan(page)).toBeLessThanOrEqual(375);
    await shot("1-sign-up-refused");
    await page.getByLabel(/^密码/).fill(BOSS.password);
    await page.getByRole("button", { name: "创建工作坊" }).click();
    await expect.poll(() => page.locator(".topbar .who").textContent(), { timeout: 15_000 }).toContain("刘老板");
    expect(new URL(page.url()).pathname).toBe("/");

    expect(await ask(page, "怎么给员工开账号")).toContain("添加人员");
    expect(await ask(page, "这个月的计件")).toMatch(
      /全车间，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：共 0 件，计 0\.00 元（0 条记录）。/,
    );
    await shot("2-boss-chat");
  });

  it("lets the boss add two staff members, one with a new employee record, each with a link shown once", async () => {
    const { page, shot, context } = boss;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    await page.getByRole("button", { name: "设置" }).click();
    await page.getByRole("heading", { name: "人员" }).waitFor();
    lijuanLink = await addPerson(page, "李娟", LIJUAN.username, "new");
    await page.getByRole("button", { name: "复制" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(lijuanLink);
    expect(await noWiderThan(page)).toBeLessThanOrEqual(375);
    await shot("3-link-shown-once");
    await page.getByRole("button", { name: "我已发送" }).click();
    expect(await page.locator("body").textContent()).not.toContain(lijuanLink);

    zhangminLink = await addPerson(page, "张敏", ZHANGMIN.username, "none");
    await page.getByRole("button", { name: "我已发送" }).click();
    const lijuan = page.locator(".people-list li", { hasText: "李娟" });
    expect(await lijuan.textContent()).toContain("员工档案：李娟（工号 001）");
    expect(await lijuan.textContent()).toContain("有未用的链接");
    expect(await page.locator(".people-list li", { hasText: "张敏" }).textContent()).toContain("未关联员工档案");
    await page.locator(".people-list").scrollIntoViewIfNeeded();
    expect(await noWiderThan(page)).toBeLessThanOrEqual(375);
    await shot("4-people");

    // The same in English.
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.getByRole("heading", { name: "People" }).waitFor();
    expect(await lijuan.textContent()).toContain("Employee record: 李娟 (no. 001)");
    expect(await lijuan.getByRole("button", { name: "Deactivate" }).count()).toBe(1);
    await page.getByRole("heading", { name: "Password" }).scrollIntoViewIfNeeded();
    expect(await noWiderThan(page)).toBeLessThanOrEqual(375);
    await shot("4b-english");
    await page.getByRole("button", { name: "切换到中文" }).click();
    await page.getByRole("heading", { name: "人员" }).waitFor();
  });

  it("lets 李娟 set her password through the link at desktop width, sign in, see her own pieces and change her password", async () => {
    const lijuan = await launch({ width: 1280, height: 800 }, "people-lijuan");
    const { page, shot } = lijuan;
    await page.goto(lijuanLink);
    await page.getByText("李娟，为你在“新星服装厂”的账号设置密码。").waitFor();
    await page.getByText(`你的用户名是 ${LIJUAN.username}，登录时要用。`).waitFor();
    // The token leaves the address at once: no history entry or screenshot keeps it.
    expect(page.url()).toBe(`${baseUrl}/set-password`);
    await shot("1-set-password");
    await page.getByLabel(/^新密码/).fill(LIJUAN.first);
    await page.getByLabel("再输一次新密码").fill(LIJUAN.first);
    await page.getByRole("button", { name: "设置密码" }).click();
    await page.getByText(`密码已设置。请用用户名 ${LIJUAN.username} 和新密码登录。`).waitFor();
    expect(await page.getByLabel("用户名").inputValue()).toBe(LIJUAN.username);
    await shot("2-sign-in-after");
    await page.getByLabel("密码").fill(LIJUAN.first);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".topbar .who").textContent(), { timeout: 15_000 }).toContain("李娟");
    expect(await ask(page, "我这个月做了多少件")).toMatch(
      /你，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：共 0 件，计 0\.00 元（0 条记录）。/,
    );

    // The link worked once.
    const again = await launch({ width: 375, height: 740 }, "people-link-again");
    await again.page.goto(lijuanLink);
    await again.page.getByText("这个链接已失效、已用过或不完整").waitFor();
    await again.shot("1-link-used");

    await page.getByRole("button", { name: "设置" }).click();
    await page.getByRole("heading", { name: "密码" }).waitFor();
    await page.getByLabel("当前密码").fill(LIJUAN.first);
    await page.getByLabel(/^新密码/).fill(LIJUAN.second);
    await page.getByLabel("再输一次新密码").fill(LIJUAN.second);
    await page.getByRole("button", { name: "修改密码" }).click();
    await page.getByText("密码已修改。").waitFor();
    await shot("3-password-changed");
    const signIn = (password: string) =>
      fetch(`${baseUrl}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: LIJUAN.username, password }),
      });
    expect((await signIn(LIJUAN.first)).status).toBe(401);
    expect((await signIn(LIJUAN.second)).status).toBe(200);

    // The boss deactivates her while she is signed in: her next step lands on the sign-in screen.
    const { page: bossPage } = boss;
    const row = bossPage.locator(".people-list li", { hasText: "李娟" });
    await row.getByRole("button", { name: "停用" }).click();
    await row.getByText("停用 李娟？").waitFor();
    await row.getByRole("button", { name: "停用" }).click();
    await expect.poll(() => row.getAttribute("data-active"), { timeout: 15_000 }).toBe("false");
    await boss.shot("5-deactivated");
    await page.getByRole("button", { name: "返回对话" }).click();
    // Her next request lands there: the open chat's own (it asks whether a reply is still being
    // written) or, if she is quicker, her question.
    const expired = page.getByText("登录已过期，请重新登录。");
    const asked = page
      .getByRole("combobox", { name: "消息" })
      .fill("我这个月的工资是多少", { timeout: 5_000 })
      .then(() => page.keyboard.press("Enter"));
    await Promise.any([expired.waitFor({ timeout: 15_000 }), asked]);
    await expired.waitFor({ timeout: 15_000 });
    await page.getByLabel("用户名").fill(LIJUAN.username);
    await page.getByLabel("密码").fill(LIJUAN.second);
    await page.keyboard.press("Enter");
    await page.getByText("这个账号已停用，请找老板重新启用。").waitFor();
    await shot("4-deactivated");
  });

  it("tells 张敏, not linked yet, to ask the boss, and shows her own records once the boss links her", async () => {
    const zhangmin = await launch({ width: 375, height: 812 }, "people-zhangmin");
    const { page, shot } = zhangmin;
    await page.goto(zhangminLink);
    await page.getByLabel(/^新密码/).fill(ZHANGMIN.password);
    await page.getByLabel("再输一次新密码").fill(ZHANGMIN.password);
    await page.getByRole("button", { name: "设置密码" }).click();
    await page.getByText(/^密码已设置/).waitFor();
    await signIn(page, ZHANGMIN.username, ZHANGMIN.password);
    expect(await ask(page, "我这个月做了多少件")).toContain("你的账号还没有关联员工档案");
    await shot("1-not-linked");

    const { page: bossPage } = boss;
    const row = bossPage.locator(".people-list li", { hasText: "张敏" });
    await row.getByRole("button", { name: "编辑" }).click();
    await row.getByLabel("员工档案").selectOption({ label: "新建员工档案（用此人的姓名）" });
    await row.getByRole("button", { name: "保存" }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("员工档案：张敏（工号 002）");
    await boss.shot("6-linked");

    expect(await ask(page, "我这个月做了多少件")).toMatch(/你，本月（.*）：共 0 件/);
    const pay = await ask(page, "我这个月的工资是多少");
    expect(pay).toMatch(/你，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：没有计件记录，也没有补贴或扣款，实发 0\.00 元。/);
    expect(await noWiderThan(page)).toBeLessThanOrEqual(375);
    await shot("2-own-records");
  });
});
