// The browser comes back from an MCP server's OAuth provider to `/?mcp_sign_in=<outcome>&server=<id>`
// (see `/api/mcp/oauth/callback`): the settings page opens and says how it went.

const OUTCOMES = ["ok", "denied", "expired", "failed", "not_allowed"] as const;

/** How a server's OAuth sign-in ended, and which server (on success). */
export interface SignInReturn {
  outcome: (typeof OUTCOMES)[number];
  serverId: string | null;
}

/** The sign-in outcome in a URL's query, if it carries one Weft knows; anything else is ignored. */
export function readSignInReturn(search: string): SignInReturn | null {
  const params = new URLSearchParams(search);
  const outcome = OUTCOMES.find((o) => o === params.get("mcp_sign_in"));
  if (!outcome) return null;
  const server = params.get("server");
  return { outcome, serverId: server && /^[A-Za-z0-9_-]{1,64}$/.test(server) ? server : null };
}
