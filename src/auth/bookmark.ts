import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { WorkshopRef } from "../workshop-db.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";

/** The header any client may carry a D1 bookmark in, both ways. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";
const COOKIE = "weft_bookmark";
// D1 bookmarks are hex groups joined by dashes; anything else a client sends is ignored.
const BOOKMARK = /^[0-9a-f]{1,16}(-[0-9a-f]{1,64}){1,8}$/i;

/**
 * The D1 bookmark a client sent back for its workshop's database: the header (`<shard>~<bookmark>`),
 * or the browser's cookie (`<workshop>~<shard>~<bookmark>`). Both name the database the bookmark is
 * of, so one never reaches another database: not another workshop's, nor the shard a workshop was
 * moved from.
 */
export function bookmarkOf(c: Context, workshop: WorkshopRef): string | undefined {
  const header = c.req.header(BOOKMARK_HEADER);
  const sent = header !== undefined ? `${workshop.id}~${header}` : getCookie(c, COOKIE);
  const [id, shard, bookmark, ...rest] = (sent ?? "").split("~");
  if (id !== workshop.id || shard !== workshop.shard || rest.length > 0 || bookmark === undefined) return undefined;
  return BOOKMARK.test(bookmark) ? bookmark : undefined;
}

/** Hands the session's bookmark back: in the header to every client, and to a browser as a cookie. */
export function sendBookmark(c: Context, workshop: WorkshopRef, bookmark: string | null): void {
  if (bookmark === null || !BOOKMARK.test(bookmark)) return;
  try {
    c.header(BOOKMARK_HEADER, `${workshop.shard}~${bookmark}`);
  } catch {
    // A response whose headers are fixed (one relayed as it came) goes without: the client's next
    // request then starts at the primary, which is slower and just as correct.
    return;
  }
  if (getCookie(c, SESSION_COOKIE) !== undefined) {
    setCookie(c, COOKIE, `${workshop.id}~${workshop.shard}~${bookmark}`, {
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
      secure: c.req.url.startsWith("https:"),
    });
  }
}
