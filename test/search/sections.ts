import { expect } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

/** A new knowledge base of the boss's workshop; its id. */
export async function newKnowledgeBase(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

/** Uploads, as the boss, a Markdown document of `sections` under a title named for the file. */
export async function uploadSections(kbId: string, filename: string, sections: string[]): Promise<void> {
  const res = await call(`/api/knowledge-bases/${kbId}/documents`, {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ filename, content: `# ${filename}\n\n${sections.join("\n\n")}` }),
  });
  expect(res.status).toBe(201);
}
