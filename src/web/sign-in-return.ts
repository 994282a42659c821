// The browser comes back from an MCP server's OAuth provider to `/?mcp_sign_in=<outcome>&server=<id>`
// (see `/api/mcp/oauth/callback`), whoever opened the link: the UI reads the outcome once, takes it
// out of the address, and says how it went on the page that person sees (the sign-in form, the
// settings page of a boss, a notice above the chat for anyone else).

const OUTCOMES = ["ok", "denied", "expired", "failed", "not_allowed"] as const;
type Outcome = (typeof OUTCOMES)[number];

/** The texts an outcome is told with, as `i18n.ts` has them (named here so this file needs no DOM). */
interface ReturnTexts {
  signInReturn: { ok: (name?: string) => string } & Record<Exclude<Outcome, "ok">, string>;
  signInReturnNotYours: string;
}

/** How a server's OAuth sign-in ended, and which server (on success). */
export interface SignInReturn {
  outcome: Outcome;
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

/**
 * What the page says about a sign-in's outcome. `staff`: the person cannot manage servers, so a
 * refusal says who can finish the sign-in instead of asking them to sign in as a boss.
 */
export function signInReturnText(t: ReturnTexts, { outcome }: SignInReturn, { staff = false } = {}): string {
  if (outcome === "not_allowed" && staff) return t.signInReturnNotYours;
  return outcome === "ok" ? t.signInReturn.ok() : t.signInReturn[outcome];
}
