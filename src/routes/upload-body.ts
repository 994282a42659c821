import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { AppError, badRequest } from "../errors.ts";
import { refusal } from "../validation.ts";
import { mediaTypeOf, quoteContentType, readJsonBody } from "./json-body.ts";

/**
 * Reads an upload as JSON or as multipart form data, where each `file` field becomes
 * `{ filename, bytes, content_type }` (several files become `{ documents: [...] }`): its bytes as
 * sent, so a PDF stays a PDF and a GBK text file is decoded by what reads it. Browsers and
 * `curl -F file=@guide.md` send the second; scripts usually the first. The result is unchecked:
 * validate it with `parseUpload` or per document.
 */
export async function readUploadBody(c: Context<AppEnv>, maxBytes: number): Promise<unknown> {
  const contentType = c.req.header("Content-Type");
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === "multipart/form-data") return readMultipart(c, contentType ?? "");
  if (mediaType === "application/json") return readJsonBody(c, maxBytes);
  throw new AppError(
    "unsupported_media_type",
    `Send the upload with 'Content-Type: application/json' or 'multipart/form-data' (${quoteContentType(contentType)}).`,
  );
}

/** Checks an upload body against `schema`, naming each bad field in a 400 (422 for a refused name alone). */
export function parseUpload<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw refusal("Invalid body", parsed.error);
  return parsed.data;
}

/** `readUploadBody` then `parseUpload`, for routes that take one document. */
export async function readUpload<T extends z.ZodType>(c: Context<AppEnv>, schema: T, maxBytes: number): Promise<z.output<T>> {
  return parseUpload(schema, await readUploadBody(c, maxBytes));
}

async function readMultipart(c: Context<AppEnv>, contentType: string): Promise<unknown> {
  if (!/;\s*boundary=/i.test(contentType)) {
    throw badRequest("A multipart/form-data upload needs a boundary in its Content-Type ('multipart/form-data; boundary=...').");
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badRequest(
      "The multipart body could not be read: it is truncated, or its parts do not match the boundary in the Content-Type.",
    );
  }
  const files = form.getAll("file").filter((f): f is File => typeof f !== "string");
  if (files.length === 0) throw badRequest("Send the document as a form field named 'file'.");
  const documents = await Promise.all(
    files.map(async (file) => ({
      filename: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      ...(file.type ? { content_type: file.type } : {}),
    })),
  );
  const title = form.get("title");
  return documents.length === 1 ? { ...documents[0], ...(typeof title === "string" && title ? { title } : {}) } : { documents };
}
