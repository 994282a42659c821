import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../app-env.ts";
import { SESSION_TTL_SECONDS } from "./web-sessions.ts";

/** The browser session cookie's name; the UI never reads it (HttpOnly), it only rides along. */
export const SESSION_COOKIE = "weft_session";

// Browsers treat http://localhost as a secure context but refuse Secure cookies over plain http on
// other hosts; everywhere else (production) the cookie is Secure.
function isLocalhost(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.endsWith(".localhost");
}

/** The session token the browser sent, if any. */
export function sessionToken(c: Context<AppEnv>): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined;
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, whole site, Secure outside localhost. */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: !isLocalhost(c.req.url),
    path: "/",
    maxAge: SESSION_TTL_SECONDS,
  });
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: !isLocalhost(c.req.url), httpOnly: true, sameSite: "Lax" });
}
