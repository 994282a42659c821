import { z } from "zod";

export const CreateKnowledgeBaseSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).optional(),
  type: z.enum(["document", "faq"]).optional(),
});

export const UpdateKnowledgeBaseSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(1000).optional(),
  })
  .refine((body) => body.name !== undefined || body.description !== undefined, { message: "give a new name or description" });

const DocumentUploadSchema = z.object({
  filename: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .describe("The file name; its extension (.md, .txt, .html) gives the type unless content_type does."),
  content: z.string().describe("The document's text."),
  title: z.string().trim().min(1).max(300).optional(),
  content_type: z.string().max(100).optional(),
});
export type DocumentUpload = z.infer<typeof DocumentUploadSchema>;

export const MAX_BATCH_DOCUMENTS = 100;

/** One document, or up to 100 at once as `{ documents: [...] }`. */
export const UploadDocumentsSchema = z.union([
  DocumentUploadSchema,
  z.object({ documents: z.array(DocumentUploadSchema).min(1).max(MAX_BATCH_DOCUMENTS) }),
]);

export const ReplaceDocumentSchema = DocumentUploadSchema.partial({ filename: true });
