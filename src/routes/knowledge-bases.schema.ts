import { z } from "zod";

export const CreateKnowledgeBaseSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).optional(),
  type: z.enum(["document", "faq"]).optional(),
});
