// The confirm page against `npm run dev`, in Debian's Chromium: an agent (the MCP SDK's client,
// with a key that may not confirm) prepares a piece record; confirm_action refuses and gives the
// page's link; the person opens it, signs in, sees the preview and confirms; the record is
// written once and the audit says the confirm page said yes. At phone and desktop width.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser } from "./browser.ts";

const baseUrl = inject("baseUrl");

async function agent(key: string): Promise<Client> {
  const client = new Client({ name: "confirm-page-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

interface Entry {
  id: string;
  action_id: string;
  confirmed_via: string | null;
  shown_sha256: string | null;
}

async function audit(actionId: string): Promise<Entry[]> {
  const res = await fetch(`${baseUrl}/api/audit?limit=100`, { headers: { Authorization: "Bearer dev-boss-key" } });
  const body = (await res.json()) as { entries: Entry[] };
  return body.entries.filter((entry) => entry.action_id === actionId);
}

/** The preview text an audit entry keeps, as `GET /api/audit/:id` gives it to a boss. */
async function shownText(id: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/audit/${id}`, { headers: { Authorization: "Bearer dev-boss-key" } });
  return ((await res.json()) as { shown_text: string }).shown_text;
}

let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

describe("the confirm page", () => {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    it(`lets the person confirm what an agent prepared, and keeps the words they saw, at ${viewport.width} px`, async () => {
      const client = await agent("dev-staff-key");
      const prepared = await client.callTool({ name: "prepare_piece_record", arguments: { process: "上袖子", quantity: 3 } });
      const { action_id, confirm_url } = prepared.structuredContent as { action_id: string; confirm_url: string };
      expect(confirm_url).toBe(`${baseUrl}/actions/${action_id}`);
      const refused = await client.callTool({ name: "confirm_action", arguments: { action_id } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]?.text).toContain(confirm_url);
      await client.close();

      browser = await launchBrowser(viewport, `confirm-page-${viewport.width}`);
      const { page } = browser;
      await page.goto(confirm_url);
      await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
      await page.locator('input[name="username"]').fill("staff");
      await page.locator('input[name="password"]').fill("staff123");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "确认一项操作" }).waitFor();
      const card = page.locator(`section.confirm-card[data-action-id="${action_id}"]`);
      await card.waitFor();
      expect(await card.textContent()).toContain("上袖子");
      expect(await card.getAttribute("data-status")).toBe("pending");
      // Nothing on the page is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await browser.shot("1-pending");
      await card.getByRole("button", { name: "确认" }).click();
      await expect.poll(() => card.getAttribute("data-status"), { timeout: 15_000 }).toBe("confirmed");
      await browser.shot("2-confirmed");
      const [entry] = await audit(action_id);
      expect(entry).toMatchObject({ confirmed_via: "confirm_page", shown_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      // Each line the audit keeps is on the card the person saw: the summary, then each field.
      const shown = await shownText(entry!.id);
      const cardText = (await card.textContent()) ?? "";
      for (const line of shown.split("\n")) {
        for (const part of line.split("：")) expect(cardText, part).toContain(part);
      }
    });
  }

  it("records a yes on the page a URL elicitation opened as that path", async () => {
    const client = await agent("dev-staff-key");
    const prepared = await client.callTool({ name: "prepare_piece_record", arguments: { process: "上袖子", quantity: 2 } });
    const { action_id, confirm_url } = prepared.structuredContent as { action_id: string; confirm_url: string };
    await client.close();
    browser = await launchBrowser({ width: 375, height: 812 }, "confirm-page-url-elicitation");
    const { page } = browser;
    await page.goto(`${confirm_url}?via=url_elicitation`);
    await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
    await page.locator('input[name="username"]').fill("staff");
    await page.locator('input[name="password"]').fill("staff123");
    await page.keyboard.press("Enter");
    const card = page.locator(`section.confirm-card[data-action-id="${action_id}"]`);
    await card.getByRole("button", { name: "确认" }).click();
    await expect.poll(() => card.getAttribute("data-status"), { timeout: 15_000 }).toBe("confirmed");
    expect(await audit(action_id)).toEqual([expect.objectContaining({ confirmed_via: "url_elicitation" })]);
  });
});
