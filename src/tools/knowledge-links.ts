/**
 * The URI of a knowledge document, as MCP resources and search results name it: the one address
 * an agent reads the whole document at (`resources/read`).
 */
export function documentUri(kbId: string, documentId: string): string {
  return `weft://knowledge-bases/${encodeURIComponent(kbId)}/documents/${encodeURIComponent(documentId)}`;
}
