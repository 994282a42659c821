// Debian's Chromium, driven by playwright-core, for the browser tests: a fresh profile per launch,
// no GPU, no network besides the server under test.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS = join(import.meta.dirname, "..", "artifacts");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Saves a PNG of the page under test/artifacts/ (git-ignored). */
  shot(name: string): Promise<void>;
  /** Content-Security-Policy violations any page reported since the last call, as `directive blocked-uri`. */
  takeCspViolations(): string[];
  close(): Promise<void>;
}

/** Starts Chromium with its own user-data dir and one page at the given viewport. */
export async function launchBrowser(viewport: { width: number; height: number }, label: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "weft-chromium-"));
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
    locale: "zh-CN",
    timezoneId: "Asia/Shanghai",
    // No sliding sidebar or fading text half-way through a screenshot.
    reducedMotion: "reduce",
  });
  // Reported through a binding rather than kept in the page, so that they outlive its navigations.
  const violations: string[] = [];
  await context.exposeBinding("__weftCspViolation", (_source, violation: string) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __weftCspViolation(violation: string): void }).__weftCspViolation;
    document.addEventListener("securitypolicyviolation", (e) => report(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    shot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `${label}-${name}.png`), fullPage: false });
    },
    takeCspViolations: () => violations.splice(0),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A desktop (1280 x 800) and a phone (375 x 740) Chromium for the tests of one `describe`, started
 * before them and closed after; read them off the returned object inside the tests.
 */
export function desktopAndPhone(): { readonly desktop: Browser; readonly phone: Browser } {
  const browsers = {} as { desktop: Browser; phone: Browser };
  beforeAll(async () => {
    browsers.desktop = await launchBrowser({ width: 1280, height: 800 }, "desktop");
    browsers.phone = await launchBrowser({ width: 375, height: 740 }, "phone");
  });
  afterAll(async () => {
    await browsers.desktop?.close();
    await browsers.phone?.close();
  });
  return browsers;
}

/** Signs in on Weft's sign-in page as a person does, by keyboard, and waits for the chat. */
export async function signInByKeyboard(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(baseUrl);
  await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
  await page.keyboard.type(username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await page.locator(".topbar").waitFor();
}
