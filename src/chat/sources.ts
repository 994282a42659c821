import type { UIMessageChunk } from "ai";
import { citedSource } from "../search/citation.ts";
import type { SearchResult } from "../search/search.ts";
import type { CitedSource } from "../shapes.ts";
import { citationOf } from "./passages.ts";

/** A passage the reply may cite: where it is (its base and chunk) and how the reply names it. */
export interface SourcePassage {
  id: string;
  kbId: string;
  title: string;
  heading: string;
}

/** The passages retrieval found for the question, as the reply may cite them (a file by its name and page). */
export function retrievedSources(results: SearchResult[]): SourcePassage[] {
  return results.map((r) => ({ id: r.id, kbId: r.knowledge_base_id, ...citedSource(r) }));
}

/**
 * The `data-sources` part for passages a reply may cite, each under the citation the answer names
 * it by, so the browser can open the passage a `[n]` points at. `null` when there are none.
 */
export function sourcesPart(passages: SourcePassage[]): { type: "data-sources"; data: { sources: CitedSource[] } } | null {
  const sources = passages.map((p) => ({
    citation: citationOf({ title: p.title, heading: p.heading, content: "" }),
    kb_id: p.kbId,
    chunk_id: p.id,
  }));
  return sources.length > 0 ? { type: "data-sources", data: { sources } } : null;
}

interface Hit {
  id: string;
  knowledge_base: { id: string };
  title: string;
  heading: string;
  file?: string | null;
  page?: number | null;
}

function isHit(value: unknown): value is Hit {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  const base = r.knowledge_base as Record<string, unknown> | null | undefined;
  return ["id", "title", "heading"].every((key) => typeof r[key] === "string") && typeof base?.id === "string";
}

/** The passages a tool's output quotes (a knowledge search's hits), or none for any other output. */
export function toolSources(output: unknown): SourcePassage[] {
  const results = typeof output === "object" && output !== null ? (output as { results?: unknown }).results : null;
  if (!Array.isArray(results)) return [];
  return results.filter(isHit).map((hit) => ({
    id: hit.id,
    kbId: hit.knowledge_base.id,
    ...citedSource({ knowledge_title: hit.title, knowledge_filename: hit.file ?? "", heading_path: hit.heading, page: hit.page }),
  }));
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
