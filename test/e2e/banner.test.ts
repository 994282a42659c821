import { afterEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error: a plain .mjs script, without types
import { describeKnowledgeBases } from "../../scripts/load-knowledge.mjs";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the npm run dev banner", () => {
  it("prints a stored knowledge-base name with control characters as their code points, never raw", async () => {
    // A name stored before names were checked: a terminal escape that would clear the screen.
    const knowledge_bases = [{ name: "手册\u001b[2J\u202e", type: "document", document_count: 1, chunk_count: 2 }];
    vi.stubGlobal("fetch", async () => Response.json({ knowledge_bases }));
    const lines: string[] = await describeKnowledgeBases({ baseUrl: "http://weft.test", bossKey: "k", loaded: [] });
    expect(lines).toEqual(["手册<U+001B>[2J<U+202E> (1 document, 2 chunks)"]);
  });
});
