/** The text a chunk is indexed, embedded and reranked with: title, headings, content. */
export function passageText(chunk: { knowledge_title: string; heading_path: string; content: string }): string {
  return [chunk.knowledge_title, chunk.heading_path, chunk.content].filter(Boolean).join("\n");
}
