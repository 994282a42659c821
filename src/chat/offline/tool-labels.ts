import type { BothLanguages } from "../../shapes.ts";
import { WEFT_TOOLS } from "../../tools/registry.ts";
import type { ToolWords } from "../../tools/words.ts";

// The offline model's table headings and list titles are the tools' own words (their definitions'
// `results` and `lists`), so a new tool's replies need no list of labels here.

const WORDS = new Map<string, ToolWords>(WEFT_TOOLS.map((tool) => [tool.name, tool.words]));

function said(words: Record<string, BothLanguages> | undefined, key: string, chinese: boolean): string | null {
  const found = words && Object.hasOwn(words, key) ? words[key] : undefined;
  return found ? found[chinese ? "zh" : "en"] : null;
}

/** What a field of a tool's result is called; its key, spaced, when the tool does not say. */
export function fieldLabel(toolName: string, key: string, chinese: boolean): string {
  return said(WORDS.get(toolName)?.results, key, chinese) ?? key.replace(/_/g, " ");
}

/** What a list in a tool's result is called; its key when the tool does not say. */
export function listLabel(toolName: string, key: string, chinese: boolean): string {
  return said(WORDS.get(toolName)?.lists, key, chinese) ?? key;
}

/** Whether a tool names a list of its result: a list it does not name (`assumptions`) is not rows. */
export function namesList(toolName: string, key: string): boolean {
  const lists = WORDS.get(toolName)?.lists;
  return lists === undefined || Object.hasOwn(lists, key);
}

/** What a tool is called; its name when it is not one of Weft's. */
export function toolTitle(toolName: string, chinese: boolean): string {
  return WORDS.get(toolName)?.title[chinese ? "zh" : "en"] ?? toolName;
}

/** What a tool offers, for the offline model's list of what it can do; `own` for staff. */
export function offerOf(toolName: string, chinese: boolean, own: boolean): string | null {
  const offer = WORDS.get(toolName)?.offer;
  if (!offer) return null;
  const words = own && offer.own ? offer.own : offer;
  return words[chinese ? "zh" : "en"];
}
