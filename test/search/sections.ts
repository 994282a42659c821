import { expect } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

/** A new knowledge base of the boss's workshop; its id. */
export async function newKnowledgeBase(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

/** Uploads, as the boss, a Markdown document, answered with one of the `expected` statuses. */
export async function uploadDocument(kbId: string, filename: string, content: string, expected = [201]): Promise<void> {
  const res = await call(`/api/knowledge-bases/${kbId}/documents`, {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ filename, content }),
  });
  expect(expected).toContain(res.status);
}

/** Uploads, as the boss, a Markdown document of `sections` under a title named for the file. */
export async function uploadSections(kbId: string, filename: string, sections: string[]): Promise<void> {
  await uploadDocument(kbId, filename, `# ${filename}\n\n${sections.join("\n\n")}`);
}
