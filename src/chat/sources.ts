import type { UIMessageChunk } from "ai";
import { citedSource } from "../search/citation.ts";
import type { CitedSource } from "../shapes.ts";
import { citationOf } from "./passages.ts";

/** A search result as the chat receives it, from retrieval or from the `knowledge_search` tool. */
export interface SourceResult {
  id: string;
  knowledge_base_id: string;
  knowledge_title: string;
  knowledge_filename: string;
  heading_path: string;
  page?: number | null;
}

function isResult(value: unknown): value is SourceResult {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return ["id", "knowledge_base_id", "knowledge_title", "knowledge_filename", "heading_path"].every(
    (key) => typeof r[key] === "string",
  );
}

/**
 * The `data-sources` part for passages a reply may cite, each under the citation the answer names
 * it by, so the browser can open the passage a `[n]` points at. `null` when there are none.
 */
export function sourcesPart(results: unknown[]): { type: "data-sources"; data: { sources: CitedSource[] } } | null {
  const sources = results.filter(isResult).map((r) => ({
    citation: citationOf({ ...citedSource(r), content: "" }),
    kb_id: r.knowledge_base_id,
    chunk_id: r.id,
  }));
  return sources.length > 0 ? { type: "data-sources", data: { sources } } : null;
}

/** The results of a `knowledge_search` call's output, or none for any other tool. */
export function searchResultsOf(toolName: string, output: unknown): unknown[] {
  if (toolName !== "knowledge_search" || typeof output !== "object" || output === null) return [];
  const results = (output as { results?: unknown }).results;
  return Array.isArray(results) ? results : [];
}

/** Passes a message's chunks through with `part` right after its `start`, where a message's parts begin. */
export function afterStart(part: UIMessageChunk | null): TransformStream<UIMessageChunk, UIMessageChunk> {
  let pending = part;
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (pending && chunk.type === "start") {
        controller.enqueue(pending);
        pending = null;
      }
    },
  });
}
