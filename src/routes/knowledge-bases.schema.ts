import { z } from "zod";
import { printableName } from "../validation.ts";

/** A knowledge base's name, shown in lists, the chat's `@` menu and the `npm run dev` banner. */
const KbName = z.string().superRefine(printableName).trim().min(1).max(100);

export const CreateKnowledgeBaseSchema = z.strictObject({
  name: KbName,
  description: z.string().max(1000).optional(),
  type: z.enum(["document", "faq"]).optional(),
});

export const UpdateKnowledgeBaseSchema = z
  .strictObject({
    name: KbName.optional(),
    description: z.string().max(1000).optional(),
  })
  .refine((body) => body.name !== undefined || body.description !== undefined, { message: "give a new name or description" });

const UploadFields = z.strictObject({
  filename: z
    .string()
    .superRefine(printableName)
    .trim()
    .min(1)
    .max(255)
    .describe(
      "The file name; its extension gives the type (.md, .txt, .html, .pdf, .docx, .xlsx, .xls, .csv, .png, .jpg, .webp), or content_type does for text.",
    ),
  content: z.string().optional().describe("A text document's text (Markdown, plain text, HTML)."),
  content_base64: z.base64().optional().describe("A file's bytes in base64 (PDF, Word, Excel, CSV, images)."),
  /** A multipart file's bytes, set by the reader of form data (never by JSON, which cannot hold bytes). */
  bytes: z.instanceof(Uint8Array).optional(),
  title: z.string().superRefine(printableName).trim().min(1).max(300).optional(),
  content_type: z.string().max(100).optional(),
});

const oneContent = (upload: { content?: unknown; content_base64?: unknown; bytes?: unknown }) =>
  [upload.content, upload.content_base64, upload.bytes].filter((c) => c !== undefined).length === 1;

export const DocumentUploadSchema = UploadFields.refine(oneContent, {
  message: "give the document as exactly one of content (text) or content_base64 (a file's bytes)",
});
export type DocumentUpload = z.infer<typeof DocumentUploadSchema>;

/** What a checked upload holds: its text, or its bytes. */
export function uploadContent(upload: DocumentUpload): string | Uint8Array {
  if (upload.bytes) return upload.bytes;
  if (upload.content_base64 !== undefined) return Uint8Array.from(atob(upload.content_base64), (c) => c.charCodeAt(0));
  return upload.content ?? "";
}

export const MAX_BATCH_DOCUMENTS = 100;

/**
 * Up to 100 documents at once as `{ documents: [...] }`. Each document is checked on its own, so
 * one malformed entry fails alone and the others are still indexed.
 */
export const BatchUploadSchema = z.strictObject({
  documents: z
    .array(z.unknown())
    .min(1, "send at least one document")
    .max(MAX_BATCH_DOCUMENTS, `at most ${MAX_BATCH_DOCUMENTS} documents per request; send the rest in further requests`),
});

/** Whether an upload body is a batch (`{ documents: [...] }`) rather than one document. */
export function isBatchUpload(body: unknown): boolean {
  return typeof body === "object" && body !== null && !Array.isArray(body) && Object.hasOwn(body, "documents");
}

export const ReplaceDocumentSchema = UploadFields.partial({ filename: true }).refine(oneContent, {
  message: "give the document as exactly one of content (text) or content_base64 (a file's bytes)",
});
