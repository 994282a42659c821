// Loads knowledge/ into a running Weft through its own REST API: decision trees (as an admin) and
// one knowledge base per folder of knowledge/docs (as a boss of the workshop).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const DOCS = join(ROOT, "knowledge", "docs");
const TREES = join(ROOT, "knowledge", "trees");

const jsonHeaders = (key) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });

/**
 * Uploads every tree file. A tree the server refuses is reported and skipped; the others still
 * load, so one broken file never keeps the rest from serving.
 */
export async function uploadTrees({ baseUrl, adminKey }) {
  const loaded = [];
  const failed = [];
  const files = existsSync(TREES) ? readdirSync(TREES).filter((f) => /\.(json|ya?ml)$/i.test(f)) : [];
  for (const file_name of files) {
    const content = readFileSync(join(TREES, file_name), "utf8");
    const res = await fetch(`${baseUrl}/api/consult/trees`, {
      method: "PUT",
      headers: jsonHeaders(adminKey),
      body: JSON.stringify({ file_name, content }),
    });
    const body = await res.json();
    if (res.ok) loaded.push(`${body.id}@${body.version}`);
    else failed.push(`${file_name}: ${body.error?.message ?? res.status}`);
  }
  return { loaded, failed };
}

/** One knowledge base per folder of knowledge/docs; existing ones are kept. */
export async function createKnowledgeBases({ baseUrl, bossKey }) {
  const loaded = [];
  const folders = existsSync(DOCS) ? readdirSync(DOCS).filter((name) => statSync(join(DOCS, name)).isDirectory()) : [];
  for (const name of folders) {
    const res = await fetch(`${baseUrl}/api/knowledge-bases`, {
      method: "POST",
      headers: jsonHeaders(bossKey),
      body: JSON.stringify({ name }),
    });
    if (res.status !== 201 && res.status !== 409)
      throw new Error(`creating knowledge base '${name}' failed: ${res.status} ${await res.text()}`);
    loaded.push(name);
  }
  return loaded;
}
