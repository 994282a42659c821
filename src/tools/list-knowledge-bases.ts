import { z } from "zod";
import { listKnowledgeBases } from "../search/knowledge-bases.ts";
import { defineTool } from "./tool.ts";

const KnowledgeBaseSchema = z.object({
  id: z.string().describe("Pass this id in kb_ids / knowledge_base_ids to search only this base."),
  name: z.string(),
  description: z.string(),
  type: z.enum(["document", "faq"]),
  document_count: z.number().int().describe("Documents ready to search."),
  updated_at: z.string(),
});

/** Lets an agent discover which knowledge bases the caller's workshop has, and their ids. */
export const listKnowledgeBasesTool = defineTool({
  name: "list_knowledge_bases",
  title: "List knowledge bases",
  description:
    "List the knowledge bases of the caller's workshop with their ids, names and descriptions. " +
    "Call this before a knowledge search when the user names a manual or topic, to choose which bases to search.",
  inputSchema: z.object({
    name_contains: z
      .string()
      .max(100)
      .optional()
      .describe("Only bases whose name contains this text (case-insensitive). Omit to list all."),
  }),
  outputSchema: z.object({
    knowledge_bases: z.array(KnowledgeBaseSchema),
    total_count: z.number().int(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const all = await listKnowledgeBases(ctx.services.search);
    const needle = input.name_contains?.toLowerCase();
    const bases = needle ? all.filter((kb) => kb.name.toLowerCase().includes(needle)) : all;
    const knowledge_bases = bases.map(({ id, name, description, type, document_count, updated_at }) => ({
      id,
      name,
      description,
      type,
      document_count,
      updated_at,
    }));
    const text =
      knowledge_bases.length === 0
        ? "No knowledge bases found."
        : knowledge_bases
            .map(
              (kb) =>
                `- **${kb.name}** (id: \`${kb.id}\`, ${kb.type}, ${kb.document_count} documents)${kb.description ? `: ${kb.description}` : ""}`,
            )
            .join("\n");
    return { kind: "result", structured: { knowledge_bases, total_count: knowledge_bases.length }, text };
  },
});
