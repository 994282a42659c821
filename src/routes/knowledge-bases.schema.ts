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

export const DocumentUploadSchema = z.strictObject({
  filename: z
    .string()
    .superRefine(printableName)
    .trim()
    .min(1)
    .max(255)
    .describe("The file name; its extension (.md, .txt, .html) gives the type unless content_type does."),
  content: z.string().describe("The document's text."),
  title: z.string().superRefine(printableName).trim().min(1).max(300).optional(),
  content_type: z.string().max(100).optional(),
});
export type DocumentUpload = z.infer<typeof DocumentUploadSchema>;

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

export const ReplaceDocumentSchema = DocumentUploadSchema.partial({ filename: true });
