import { badRequest } from "../errors.ts";

/**
 * Optimistic concurrency over HTTP (RFC 9110 §8.8.3, §13.1.1): a versioned resource answers with
 * `ETag: "<version>"`, and a write that sends it back in `If-Match` applies only while the resource
 * is still at that version. Weft's versions are whole numbers, so the entity tag is the number.
 *
 * @example c.header("ETag", etagOf(entry.version))
 */
export function etagOf(version: number): string {
  return `"${version}"`;
}

// One list element: an optional weak prefix, then a quoted tag (any visible character but `"`), or
// nothing, since a list may hold empty elements (RFC 9110 §5.6.1).
const ELEMENT = /\s*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*)?(?:,|$)/y;

/**
 * The versions an `If-Match` header accepts, or `undefined` when there is no condition (no header,
 * or `*`, which every existing resource matches). Comparison is strong, as the RFC asks of
 * `If-Match`: a weak tag (`W/"3"`) and a tag Weft never issued match no version, so the write is
 * refused as stale rather than applied. A header that is not a list of entity tags is a 400.
 *
 * @example ifMatchVersions('"3", "4"') // [3, 4]
 */
export function ifMatchVersions(header: string | undefined): number[] | undefined {
  if (header === undefined || header.trim() === "*") return undefined;
  if (header.trim() === "") throw badRequest('If-Match is empty; send the ETag you read, such as "3", or leave the header out.');
  const versions: number[] = [];
  ELEMENT.lastIndex = 0;
  while (ELEMENT.lastIndex < header.length) {
    const start = ELEMENT.lastIndex;
    const match = ELEMENT.exec(header);
    if (!match || ELEMENT.lastIndex === start) {
      throw badRequest(
        `If-Match must be '*' or entity tags as the ETag header gave them, such as "3" (quotes included); got ${JSON.stringify(header.slice(0, 100))}.`,
      );
    }
    const [, weak, tag] = match;
    if (!weak && tag !== undefined && /^(0|[1-9][0-9]{0,14})$/.test(tag)) versions.push(Number(tag));
  }
  return versions;
}
