import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { SESSION_COOKIE } from "./session-cookie.ts";

/** The header any client may carry a D1 bookmark in, both ways. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";
const COOKIE = "weft_bookmark";
// D1 bookmarks are hex groups joined by dashes; anything else a client sends is ignored.
const BOOKMARK = /^[0-9a-f]{1,16}(-[0-9a-f]{1,64}){1,8}$/i;

/**
 * The D1 bookmark a client sent back for its workshop: the header, or the browser's cookie (which
 * also names the workshop, so a bookmark never crosses from one workshop's database to another's).
 */
export function bookmarkOf(c: Context, workshopId: string): string | undefined {
  const header = c.req.header(BOOKMARK_HEADER);
  if (header !== undefined) return BOOKMARK.test(header) ? header : undefined;
  const cookie = getCookie(c, COOKIE);
  const at = cookie?.lastIndexOf(":") ?? -1;
  if (!cookie || at < 0 || cookie.slice(0, at) !== workshopId) return undefined;
  const bookmark = cookie.slice(at + 1);
  return BOOKMARK.test(bookmark) ? bookmark : undefined;
}

/** Hands the session's bookmark back: in the header to every client, and to a browser as a cookie. */
export function sendBookmark(c: Context, workshopId: string, bookmark: string | null): void {
  if (bookmark === null || !BOOKMARK.test(bookmark)) return;
  try {
    c.header(BOOKMARK_HEADER, bookmark);
  } catch {
    // A response whose headers are fixed (one relayed as it came) goes without: the client's next
    // request then starts at the primary, which is slower and just as correct.
    return;
  }
  if (getCookie(c, SESSION_COOKIE) !== undefined) {
    setCookie(c, COOKIE, `${workshopId}:${bookmark}`, {
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
      secure: c.req.url.startsWith("https:"),
    });
  }
}
