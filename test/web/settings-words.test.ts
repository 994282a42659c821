import { describe, expect, it } from "vitest";
import { confirmedViaText, settingsWords } from "../../src/web/settings-words.ts";

const zh = settingsWords("zh");
const en = settingsWords("en");
const entry = (
  confirmed_via: Parameters<typeof confirmedViaText>[0]["confirmed_via"],
  confirmed_key_prefix: string | null = null,
) => ({
  confirmed_via,
  confirmed_key_prefix,
});

describe("how the recent writes name the path a person said yes by", () => {
  it("names each path in Chinese and in English", () => {
    expect(["card", "elicitation", "confirm_page"].map((via) => confirmedViaText(entry(via as "card"), zh))).toEqual([
      "卡片",
      "对话确认",
      "确认页",
    ]);
    expect(["card", "elicitation", "confirm_page"].map((via) => confirmedViaText(entry(via as "card"), en))).toEqual([
      "card",
      "in-conversation (elicitation)",
      "confirm page",
    ]);
  });

  it("gives an agent's key with its visible prefix, and says when a write predates the record", () => {
    expect(confirmedViaText(entry("agent_key", "wft_AbCdEfGh"), zh)).toBe("代理密钥 wft_AbCdEfGh…");
    expect(confirmedViaText(entry("agent_key", "dev-"), en)).toBe("agent key dev-…");
    expect(confirmedViaText(entry(null), zh)).toBe("确认方式未记录");
    expect(confirmedViaText(entry(null), en)).toBe("path not recorded");
  });
});
