import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../errors.ts";

/** Largest JSON body a non-upload route reads: its fields are short, and a cap bounds parsing. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/;
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === "string" ? value.toWellFormed() : value;
}

/** The media type of a Content-Type header, lowercased, without parameters ("" when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** How a Content-Type is quoted back in an error: short, so a hostile header is not echoed whole. */
export function quoteContentType(contentType: string | undefined): string {
  if (!contentType) return "no Content-Type was sent";
  return `got '${contentType.length > 80 ? `${contentType.slice(0, 80)}…` : contentType}'`;
}

/** Refuses (415, saying so) a body that is not declared JSON: a missing or other Content-Type. */
export function requireJson(contentType: string | undefined): void {
  if (!JSON_MEDIA_TYPE.test(mediaTypeOf(contentType))) {
    throw new AppError(
      "unsupported_media_type",
      `Send the body as JSON with 'Content-Type: application/json' (${quoteContentType(contentType)}).`,
    );
  }
}

/**
 * Reads and parses a JSON request body, answering a client's mistake as one: a missing or wrong
 * Content-Type is a 415 that says so, an oversized body a 413, and an empty, malformed or trailing
 * text body (`{bad`, `{} x`, `NaN`) a 400 `invalid_json`. Never a 500.
 *
 * @example const body = await readJsonBody(c); // then validate with a zod schema
 */
export async function readJsonBody(c: Context, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  requireJson(c.req.header("Content-Type"));
  // Hono's limit checks Content-Length, or counts a body sent without it (chunked) and stops
  // reading at the limit, so an endless body is neither buffered whole nor waited for.
  await bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes);
    },
  })(c, async () => {});
  const text = await c.req.text();
  if (text.length > maxBytes && new TextEncoder().encode(text).length > maxBytes) throw tooLarge(maxBytes);
  if (text.trim() === "") throw new AppError("invalid_json", "The request body is empty; send a JSON object.");
  try {
    // Text decoded from bytes is well-formed, but a `\uD800` escape still decodes to half a
    // surrogate pair, which D1 would store as three bytes and give back as three U+FFFD: made one
    // U+FFFD here, once. The test spares the walk for the bodies (nearly all) without such an escape.
    return LONE_SURROGATE_ESCAPE.test(text) ? JSON.parse(text, wellFormed) : JSON.parse(text);
  } catch {
    throw new AppError(
      "invalid_json",
      "The request body is not valid JSON (look for a missing quote, comma or brace, text after the closing brace, or NaN).",
    );
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes, this route's limit.`);
}
