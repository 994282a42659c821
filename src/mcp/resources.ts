import {
  type ContentBlock,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Resource,
  ResourceNotFoundError,
} from "@modelcontextprotocol/server";
import { AppError } from "../errors.ts";
import { listKnowledgeBases } from "../search/knowledge-bases.ts";
import { documentMarkdown, listReadableDocuments } from "../search/readable-documents.ts";
import { documentUri } from "../tools/knowledge-links.ts";
import type { ToolContext } from "../tools/tool.ts";

/** Documents a `resources/list` page holds. */
export const RESOURCES_PAGE_SIZE = 50;
/** Most values a completion answers (the spec's own cap). */
const MAX_COMPLETIONS = 100;
const MARKDOWN = "text/markdown";
const TEMPLATE = "weft://knowledge-bases/{knowledge_base}/documents/{document}";
const DOCUMENT_URI = /^weft:\/\/knowledge-bases\/([A-Za-z0-9_-]{1,128})\/documents\/([A-Za-z0-9_-]{1,128})$/;
/** Where a listed document names its knowledge base. */
export const KNOWLEDGE_BASE_META = "weft/knowledge_base";

/**
 * The workshop's knowledge documents as MCP resources, on the per-request server: listed a page
 * at a time, read as Markdown, addressed by a template whose two arguments complete. Everything is
 * read with the caller's workshop, so another workshop's document reads exactly like one that does
 * not exist.
 */
export function serveDocuments(mcp: McpServer, ctx: ToolContext): void {
  const server = mcp.server;
  const { db, tenantId } = ctx.services.search;
  server.registerCapabilities({ resources: { listChanged: false }, completions: {} });
  server.setRequestHandler("resources/list", async (request) => {
    const offset = pageOffset(request.params?.cursor);
    const { documents, more } = await listReadableDocuments({ db, tenantId, offset, limit: RESOURCES_PAGE_SIZE });
    const resources: Resource[] = documents.map((doc) => ({
      uri: documentUri(doc.kb_id, doc.id),
      name: doc.filename,
      title: doc.title,
      description: `${doc.title} (${doc.kb_name})`,
      mimeType: MARKDOWN,
      size: doc.size_bytes,
      annotations: { audience: ["user", "assistant"], lastModified: doc.updated_at },
      _meta: { [KNOWLEDGE_BASE_META]: { id: doc.kb_id, name: doc.kb_name } },
    }));
    return { resources, ...(more ? { nextCursor: cursorFor(offset + RESOURCES_PAGE_SIZE) } : {}) };
  });
  server.setRequestHandler("resources/templates/list", async () => ({
    resourceTemplates: [
      {
        uriTemplate: TEMPLATE,
        name: "knowledge-document",
        title: "Knowledge document",
        description:
          "A document of one of the workshop's knowledge bases, as Markdown: the knowledge base id, then the document id.",
        mimeType: MARKDOWN,
      },
    ],
  }));
  server.setRequestHandler("resources/read", async (request) => {
    const { uri } = request.params;
    const match = DOCUMENT_URI.exec(uri);
    if (!match) throw new ResourceNotFoundError(uri);
    try {
      const { markdown } = await documentMarkdown({ db, tenantId, kbId: match[1] as string, documentId: match[2] as string });
      return { contents: [{ uri, mimeType: MARKDOWN, text: markdown }] };
    } catch (error) {
      if (error instanceof AppError && error.code === "not_found") throw new ResourceNotFoundError(uri);
      throw error;
    }
  });
  server.setRequestHandler("completion/complete", async (request) => {
    const { ref, argument, context } = request.params;
    if (ref.type !== "ref/resource" || ref.uri !== TEMPLATE) return { completion: { values: [] } };
    const typed = argument.value.toLowerCase();
    const values =
      argument.name === "knowledge_base"
        ? (await listKnowledgeBases({ db, tenantId }))
            .filter((kb) => kb.type === "document")
            .map((kb) => kb.id)
            .filter((id) => id.toLowerCase().startsWith(typed))
        : argument.name === "document"
          ? await documentIds(context?.arguments?.knowledge_base, typed)
          : [];
    return {
      completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS },
    };
  });

  /** The ids of a knowledge base's readable documents starting with what was typed. */
  async function documentIds(kbId: string | undefined, typed: string): Promise<string[]> {
    if (!kbId) return [];
    const ids: string[] = [];
    for (let offset = 0; ; offset += RESOURCES_PAGE_SIZE * 10) {
      const page = await listReadableDocuments({ db, tenantId, offset, limit: RESOURCES_PAGE_SIZE * 10 });
      for (const doc of page.documents) if (doc.kb_id === kbId && doc.id.toLowerCase().startsWith(typed)) ids.push(doc.id);
      if (!page.more || ids.length > MAX_COMPLETIONS) return ids;
    }
  }
}

/**
 * `resource_link` items for the documents a result quotes (a search's hits that have a `uri`),
 * each once: a client can open the whole document beside the passage.
 */
export function searchResultLinks(structured: unknown): ContentBlock[] {
  const results = (structured as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results)) return [];
  const seen = new Set<string>();
  const links: ContentBlock[] = [];
  for (const result of results as { uri?: unknown; title?: unknown }[]) {
    if (typeof result?.uri !== "string" || seen.has(result.uri)) continue;
    seen.add(result.uri);
    const title = typeof result.title === "string" ? result.title : result.uri;
    links.push({ type: "resource_link", uri: result.uri, name: title, title, mimeType: MARKDOWN });
  }
  return links;
}

const CURSOR = /^p(\d{1,9})$/;

function cursorFor(offset: number): string {
  return btoa(`p${offset}`);
}

/** The offset a cursor names; a cursor Weft did not make is the client's Invalid Params. */
function pageOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let decoded = "";
  try {
    decoded = atob(cursor);
  } catch {
    // Not base64: refused below like any other foreign cursor.
  }
  const match = CURSOR.exec(decoded);
  if (!match)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass nextCursor from a resources/list answer.");
  return Number(match[1]);
}
