import type { Icon } from "@modelcontextprotocol/server";
import { EXTERNAL_TOOL_PREFIX } from "../tools/tool-names.ts";

/** A 24-pixel SVG icon as a data URI: small enough to ride in every `tools/list`. */
function svg(paths: string): Icon[] {
  const body = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#334155" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`;
  return [{ src: `data:image/svg+xml,${encodeURIComponent(body)}`, mimeType: "image/svg+xml", sizes: ["24x24"] }];
}

/** One icon a family: what a client shows beside a tool so a person tells reading from writing. */
export const ICONS = {
  weft: svg('<path d="M4 6h16M4 12h16M4 18h16M8 3v18M16 3v18"/>'),
  knowledge: svg('<path d="M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2z"/><path d="M4 19V5"/>'),
  consult: svg('<path d="M12 3v6M12 9l-6 6M12 9l6 6"/><circle cx="6" cy="18" r="2"/><circle cx="18" cy="18" r="2"/>'),
  records: svg('<rect x="4" y="3" width="16" height="18" rx="2"/><path d="M8 8h8M8 12h8M8 16h5"/>'),
  write: svg('<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13 7l4 4"/>'),
  external: svg('<path d="M14 4h6v6M20 4l-9 9"/><path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>'),
} satisfies Record<string, Icon[]>;

/** The family icon of a tool, by its name: the names are Weft's own and fixed. */
export function toolIcons(name: string): Icon[] {
  if (name.startsWith(EXTERNAL_TOOL_PREFIX)) return ICONS.external;
  if (name === "knowledge_search" || name === "list_knowledge_bases") return ICONS.knowledge;
  if (name.endsWith("_session")) return ICONS.consult;
  if (name.startsWith("query_")) return ICONS.records;
  return ICONS.write;
}
