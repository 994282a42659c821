import type { Icon } from "@modelcontextprotocol/server";
import { type IconName, iconPath } from "../tools/tool-icons.ts";

/**
 * An icon family as MCP names it: its address on this deployment (`GET /icons/{name}.svg`), so
 * `tools/list` carries a short URL, not the drawing.
 */
export function iconsFor(origin: string, name: IconName): Icon[] {
  return [{ src: `${origin}${iconPath(name)}` }];
}
