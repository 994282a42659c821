// Loads knowledge/ into a running Weft through its own REST API: decision trees as a workshop's
// own (as its admin; shipped trees are written by knowledge-ship.mjs instead) and one knowledge
// base per folder of knowledge/docs (as a boss of the workshop).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const DOCS = join(ROOT, "knowledge", "docs");
const TREES = join(ROOT, "knowledge", "trees");

const jsonHeaders = (key) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });

/**
 * Uploads every tree file as the admin's workshop's own trees. A tree the server refuses is reported and skipped; the others still
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

/**
 * One knowledge base per folder of knowledge/docs, holding the folder's Markdown, text and HTML
 * files. Uploading is idempotent: unchanged files are reported as such and cost nothing.
 */
export async function loadDocuments({ baseUrl, bossKey }) {
  const headers = jsonHeaders(bossKey);
  const summary = [];
  const folders = existsSync(DOCS) ? readdirSync(DOCS).filter((name) => statSync(join(DOCS, name)).isDirectory()) : [];
  const listed = await (await fetch(`${baseUrl}/api/knowledge-bases`, { headers })).json();
  for (const name of folders) {
    let kb = listed.knowledge_bases.find((k) => k.name === name);
    if (!kb) {
      const res = await fetch(`${baseUrl}/api/knowledge-bases`, { method: "POST", headers, body: JSON.stringify({ name }) });
      if (res.status !== 201) throw new Error(`creating knowledge base '${name}' failed: ${res.status} ${await res.text()}`);
      kb = await res.json();
    }
    const documents = readdirSync(join(DOCS, name))
      .filter((file) => /\.(md|markdown|txt|html?)$/i.test(file))
      .map((filename) => ({ filename, content: readFileSync(join(DOCS, name, filename), "utf8") }));
    const res = await fetch(`${baseUrl}/api/knowledge-bases/${kb.id}/documents`, {
      method: "POST",
      headers,
      body: JSON.stringify({ documents }),
    });
    if (!res.ok) throw new Error(`uploading '${name}' failed: ${res.status} ${await res.text()}`);
    const { results } = await res.json();
    const failed = results.filter((r) => r.status === "failed");
    for (const f of failed) console.error(`  ${name}/${f.filename}: ${f.error.message}`);
    const chunks = results.reduce((sum, r) => sum + (r.document?.chunk_count ?? 0), 0);
    summary.push(`${name} (${results.length - failed.length} documents, ${chunks} chunks)`);
  }
  return summary;
}
