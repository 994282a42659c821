import { z } from "zod";
import { listKnowledgeBases } from "../search/knowledge-bases.ts";
import { count } from "./applied.ts";
import { READ_ONLY } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** A knowledge base: its id (for `kb_ids`), name, description, type and documents (or FAQ entries) ready to search. */
const KnowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(["document", "faq"]),
  document_count: z.number().int(),
  updated_at: z.string(),
});

/** Lets an agent discover which knowledge bases the caller's workshop has, and their ids. */
export const listKnowledgeBasesTool = defineTool({
  name: "list_knowledge_bases",
  words: {
    title: said("列出知识库", "List knowledge bases"),
    icon: "knowledge",
    fields: pick("name_contains"),
    results: { ...pick("name"), type: said("类型", "type"), document_count: said("文档数", "documents") },
    lists: { knowledge_bases: said("知识库", "knowledge bases") },
  },
  description:
    "The workshop's knowledge bases (id, name, description, type document or faq, documents), to search only those " +
    "that fit what the user names (kb_ids).",
  inputSchema: z.object({
    name_contains: z.string().max(100).optional().describe("Only bases whose name contains this (any case)."),
  }),
  outputSchema: z.object({
    summary: z.string(),
    knowledge_bases: z.array(KnowledgeBaseSchema),
    totals: z.object({ knowledge_bases: z.number().int() }),
  }),
  annotations: READ_ONLY,
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
    const listed = knowledge_bases.map(
      (kb) => `${kb.name}（${kb.type === "faq" ? "FAQ" : "文档"}，${count(kb.document_count)} 份）`,
    );
    const summary =
      knowledge_bases.length === 0
        ? `没有${needle ? `名称含“${input.name_contains}”的` : ""}知识库。`
        : `共 ${knowledge_bases.length} 个知识库：${listed.join("、")}。`;
    return {
      kind: "result",
      structured: { summary, knowledge_bases, totals: { knowledge_bases: knowledge_bases.length } },
      text: summary,
    };
  },
});
