// One small icon a family of tools, drawn once: MCP clients get each as a URL (`tools/list` carries
// the address, not the drawing), and the browser shows the same file beside a tool card.

/** The families a tool's icon is drawn for. */
export const ICON_NAMES = ["weft", "knowledge", "consult", "records", "write", "external"] as const;
export type IconName = (typeof ICON_NAMES)[number];

const PATHS: Record<IconName, string> = {
  weft: '<path d="M4 6h16M4 12h16M4 18h16M8 3v18M16 3v18"/>',
  knowledge: '<path d="M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2z"/><path d="M4 19V5"/>',
  consult: '<path d="M12 3v6M12 9l-6 6M12 9l6 6"/><circle cx="6" cy="18" r="2"/><circle cx="18" cy="18" r="2"/>',
  records: '<rect x="4" y="3" width="16" height="18" rx="2"/><path d="M8 8h8M8 12h8M8 16h5"/>',
  write: '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13 7l4 4"/>',
  external: '<path d="M14 4h6v6M20 4l-9 9"/><path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>',
};

/** Where a family's icon is served, relative to the deployment's origin. */
export function iconPath(name: IconName): string {
  return `/icons/${name}.svg`;
}

/** A family's icon as an SVG document (24 × 24). */
export function iconSvg(name: IconName): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#334155" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${PATHS[name]}</svg>`;
}

/** Whether `name` is one of the icons' families (a request's path segment is checked before use). */
export function isIconName(name: string): name is IconName {
  return (ICON_NAMES as readonly string[]).includes(name);
}
