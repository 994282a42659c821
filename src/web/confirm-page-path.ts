// Pure, with no browser globals, so the Worker tests can run it.

/** The action a confirm page's path names (`/actions/<64 hex digits>`), or null for any other path. */
export function actionIdOfPath(pathname: string): string | null {
  return pathname.match(/^\/actions\/([0-9a-f]{64})\/?$/)?.[1] ?? null;
}

/**
 * Where a yes on the confirm page is recorded as given: the page an MCP URL elicitation opened
 * (`?via=url_elicitation`), or the confirm page itself (any other query).
 */
export function viaOfSearch(search: string): "confirm_page" | "url_elicitation" {
  return new URLSearchParams(search).get("via") === "url_elicitation" ? "url_elicitation" : "confirm_page";
}
