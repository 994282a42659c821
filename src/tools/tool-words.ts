import type { ToolWordsView } from "../shapes.ts";
import type { WeftTool } from "./tool.ts";
import { iconPath } from "./tool-icons.ts";

/**
 * A tool's words as the browser reads them: its titles, icon, and what its fields, results and
 * lists are called, in both languages, straight from its definition.
 */
export function toolWordsView(tool: WeftTool): ToolWordsView {
  const { words } = tool;
  return {
    name: tool.name,
    title: words.title,
    icon: iconPath(words.icon),
    read_only: tool.annotations.readOnlyHint === true,
    prepares: tool.prepares === undefined ? null : [tool.prepares].flat().join(" "),
    fields: words.fields ?? {},
    results: words.results ?? {},
    lists: words.lists ?? {},
  };
}
