// Pure, with no browser globals, so the Worker tests can run it.

/** What an edit changes; a header whose value is `null` keeps the value stored on the server. */
export interface McpServerChanges {
  url?: string;
  headers?: Record<string, string | null> | null;
  expose_on_mcp?: boolean;
}

/** A header row of a form; `stored` rows name a header the server already has, whose value a blank field keeps. */
export type HeaderRow = { name: string; value: string; stored?: boolean };

/**
 * What an edit changes, and only that: the URL and the /mcp flag when they differ; the headers
 * when a row was added, removed or given a value (a stored header left blank is sent as `null`,
 * which keeps its value; no rows left removes them all).
 */
export function changesOf(
  server: { url: string; header_names: string[]; expose_on_mcp: boolean },
  edited: { url: string; headers: HeaderRow[]; expose: boolean },
): McpServerChanges {
  const changes: McpServerChanges = {};
  if (edited.url !== server.url) changes.url = edited.url;
  if (edited.expose !== server.expose_on_mcp) changes.expose_on_mcp = edited.expose;
  const rows = edited.headers.filter((h) => h.stored || h.name.trim());
  const untouched =
    rows.length === server.header_names.length &&
    rows.every((h) => h.stored && h.value === "" && server.header_names.includes(h.name));
  if (!untouched) {
    changes.headers = rows.length
      ? Object.fromEntries(rows.map((h) => [h.name.trim(), h.stored && h.value === "" ? null : h.value]))
      : null;
  }
  return changes;
}
