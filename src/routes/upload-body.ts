import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { AppError, badRequest } from "../errors.ts";
import { describeIssues } from "../validation.ts";

/**
 * Reads an upload as JSON (validated by `schema`) or as multipart form data, where each `file`
 * field becomes `{ filename, content, content_type }`. Browsers and `curl -F file=@guide.md`
 * send the second; scripts usually the first.
 */
export async function readUpload<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.output<T>> {
  const type = c.req.header("Content-Type") ?? "";
  let body: unknown;
  if (type.startsWith("multipart/form-data")) {
    const form = await c.req.formData();
    const files = form.getAll("file").filter((f): f is File => typeof f !== "string");
    if (files.length === 0) throw badRequest("Send the document as a form field named 'file'.");
    const documents = await Promise.all(
      files.map(async (file) => ({
        filename: file.name,
        content: await file.text(),
        ...(file.type ? { content_type: file.type } : {}),
      })),
    );
    const title = form.get("title");
    body = documents.length === 1 ? { ...documents[0], ...(typeof title === "string" && title ? { title } : {}) } : { documents };
  } else if (type.startsWith("application/json")) {
    try {
      body = await c.req.json();
    } catch {
      throw badRequest("The request body is not valid JSON.");
    }
  } else {
    throw new AppError("unsupported_media_type", "Send application/json or multipart/form-data.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw badRequest(`Invalid body: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
