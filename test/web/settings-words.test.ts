import { describe, expect, it } from "vitest";
import type { ConfirmationPath } from "../../src/shapes.ts";
import { confirmedViaText, settingsWords } from "../../src/web/settings-words.ts";

const zh = settingsWords("zh");
const en = settingsWords("en");
const entry = (confirmed_via: ConfirmationPath | null, credential: string | null = null) => ({ confirmed_via, credential });
const PATHS: ConfirmationPath[] = ["card", "confirm_page", "url_elicitation", "form_elicitation", "agent_key"];

describe("how the recent writes name the path a write was said yes by", () => {
  it("names each path in Chinese and in English", () => {
    expect(PATHS.map((via) => confirmedViaText(entry(via), zh))).toEqual([
      "卡片",
      "确认页",
      "客户端打开的确认页",
      "客户端里的确认",
      "代理",
    ]);
    expect(PATHS.map((via) => confirmedViaText(entry(via), en))).toEqual([
      "card",
      "confirm page",
      "confirm page opened by the client",
      "in the MCP client",
      "agent",
    ]);
  });

  it("gives the credential (a key's prefix, an app's name), and says when a write predates the record", () => {
    expect(confirmedViaText(entry("agent_key", "wft_AbCdEfGh"), zh)).toBe("代理 · wft_AbCdEfGh");
    expect(confirmedViaText(entry("form_elicitation", "Claude"), en)).toBe("in the MCP client · Claude");
    expect(confirmedViaText(entry(null), zh)).toBe("确认方式未记录");
    expect(confirmedViaText(entry(null), en)).toBe("path not recorded");
  });

  it("says in one line what each confirm_by choice trusts, in both languages", () => {
    for (const words of [zh, en]) {
      for (const choice of ["weft", "client", "agent"] as const) {
        expect(words.confirmByOption[choice]).toMatch(/\S/);
        expect(words.confirmByTrusts[choice]).not.toContain("\n");
      }
    }
  });
});
