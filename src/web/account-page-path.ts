// Pure, with no browser globals, so the Worker tests can run it.

/** The account page a path names: the sign-up page, the set-password page a one-time link opens, or none. */
export function accountPageOfPath(pathname: string): "sign-up" | "set-password" | null {
  const path = pathname.replace(/\/$/, "");
  if (path === "/sign-up") return "sign-up";
  if (path === "/set-password") return "set-password";
  return null;
}

/**
 * A value the address's fragment carries (`#token=…`, `#invite=…`): read by the page and never sent
 * to a server, so a link's secret stays out of every log and Referer.
 */
export function fragmentValue(hash: string, name: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, "")).get(name);
}
