// What a written record's fields are called, from the prepare tools' words: apart from the hook that
// loads the words (tool-words.ts), so that it runs wherever the outcome of a card is worded.
import type { ToolWordsView } from "../shapes.ts";
import type { StatusLang } from "../status-words.ts";

export type ToolWords = ReadonlyMap<string, ToolWordsView>;

/**
 * What a written record's fields are called, from every prepare tool's words: a confirmed card
 * and the confirm page show the record under them.
 */
export function resultLabels(words: ToolWords | null, lang: StatusLang): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  for (const tool of words?.values() ?? []) {
    if (!tool.prepares) continue;
    for (const [field, said] of Object.entries(tool.results)) labels.set(field, said[lang]);
  }
  return labels;
}
