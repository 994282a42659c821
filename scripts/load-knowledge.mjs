// Loads knowledge/ into a running Weft through its own REST API, as a boss of the demo workshop.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const DOCS = join(ROOT, "knowledge", "docs");

/** One knowledge base per folder of knowledge/docs; existing ones are kept. */
export async function loadKnowledge({ baseUrl, key }) {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  if (!existsSync(DOCS)) return { knowledgeBases: [] };
  const folders = readdirSync(DOCS).filter((name) => statSync(join(DOCS, name)).isDirectory());
  const loaded = [];
  for (const name of folders) {
    const res = await fetch(`${baseUrl}/api/knowledge-bases`, { method: "POST", headers, body: JSON.stringify({ name }) });
    if (res.status !== 201 && res.status !== 409)
      throw new Error(`creating knowledge base '${name}' failed: ${res.status} ${await res.text()}`);
    loaded.push(name);
  }
  return { knowledgeBases: loaded };
}
