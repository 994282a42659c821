import { z } from "zod";
import { AppError } from "./errors.ts";

const CursorSchema = z
  .array(z.union([z.string().max(200), z.number()]))
  .min(1)
  .max(4);

/** An opaque page cursor: the sort key of the last row returned, base64url JSON. */
export function encodeCursor(key: (string | number)[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(key));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The sort key a cursor carries; a cursor that was not ours (or was edited) is the caller's mistake. */
export function decodeCursor(cursor: string, length: number): (string | number)[] {
  const bad = new AppError("invalid_input", "This cursor is not valid: pass next_cursor from the previous page unchanged.");
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad;
  let parsed: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    throw bad;
  }
  const checked = CursorSchema.safeParse(parsed);
  if (!checked.success || checked.data.length !== length) throw bad;
  return checked.data;
}

/** Splits a `limit + 1` fetch into the page and the cursor for the next one. */
export function page<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => (string | number)[],
): { items: T[]; next_cursor: string | null } {
  if (rows.length <= limit) return { items: rows, next_cursor: null };
  const items = rows.slice(0, limit);
  return { items, next_cursor: encodeCursor(keyOf(items[items.length - 1] as T)) };
}
