// Loads knowledge/ into a running Weft through its own REST API: decision trees as a workshop's
// own (as its admin; shipped trees are written by knowledge-ship.ts instead), one knowledge base
// per folder of knowledge/docs and one FAQ base per file of knowledge/faq (as a boss of the workshop).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { printable } from "../src/printable.ts";
import { ROOT } from "./lib.ts";

const DOCS = join(ROOT, "knowledge", "docs");
const TREES = join(ROOT, "knowledge", "trees");
const FAQ = join(ROOT, "knowledge", "faq");

const jsonHeaders = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });

/** The parts of Weft's answers these scripts read (Weft's own API, so its shapes are known). */
interface KnowledgeBase {
  id: string;
  name: string;
  type: "document" | "faq";
  document_count: number;
  chunk_count: number;
}
interface ErrorBody {
  error?: { message: string };
}
interface Failure {
  status: string;
  filename?: string;
  error: { message: string };
}

/** A response's JSON body, read as the shape Weft documents for that route. */
const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
const listKnowledgeBases = async (baseUrl: string, headers: Record<string, string>) =>
  (await json<{ knowledge_bases: KnowledgeBase[] }>(await fetch(`${baseUrl}/api/knowledge-bases`, { headers }))).knowledge_bases;

/**
 * Uploads every tree file as the admin's workshop's own trees. A tree the server refuses is reported and skipped; the others still
 * load, so one broken file never keeps the rest from serving.
 */
export async function uploadTrees({ baseUrl, adminKey }: { baseUrl: string; adminKey: string }) {
  const loaded: string[] = [];
  const failed: string[] = [];
  const files = existsSync(TREES) ? readdirSync(TREES).filter((f) => /\.(json|ya?ml)$/i.test(f)) : [];
  for (const file_name of files) {
    const content = readFileSync(join(TREES, file_name), "utf8");
    const res = await fetch(`${baseUrl}/api/consult/trees`, {
      method: "PUT",
      headers: jsonHeaders(adminKey),
      body: JSON.stringify({ file_name, content }),
    });
    const body = await json<{ id: string; version: string } & ErrorBody>(res);
    if (res.ok) loaded.push(`${body.id}@${body.version}`);
    else failed.push(`${file_name}: ${body.error?.message ?? res.status}`);
  }
  return { loaded, failed };
}

/**
 * One knowledge base per folder of knowledge/docs, holding the folder's Markdown, text and HTML
 * files. Uploading is idempotent: unchanged files are reported as such and cost nothing. Returns
 * the bases' names.
 */
export async function loadDocuments({ baseUrl, bossKey }: { baseUrl: string; bossKey: string }): Promise<string[]> {
  const headers = jsonHeaders(bossKey);
  const loaded: string[] = [];
  const folders = existsSync(DOCS) ? readdirSync(DOCS).filter((name) => statSync(join(DOCS, name)).isDirectory()) : [];
  const listed = await listKnowledgeBases(baseUrl, headers);
  for (const name of folders) {
    let kb = listed.find((k) => k.name === name);
    if (!kb) {
      const res = await fetch(`${baseUrl}/api/knowledge-bases`, { method: "POST", headers, body: JSON.stringify({ name }) });
      if (res.status !== 201) throw new Error(`creating knowledge base '${name}' failed: ${res.status} ${await res.text()}`);
      kb = await json<KnowledgeBase>(res);
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
    const { results } = await json<{ results: Failure[] }>(res);
    const failed = results.filter((r) => r.status === "failed");
    for (const f of failed) console.error(`  ${name}/${f.filename}: ${f.error.message}`);
    loaded.push(name);
  }
  return loaded;
}

/**
 * One FAQ knowledge base per JSON file of knowledge/faq (`{ description?, entries: [...] }`),
 * named after the file. Only entries whose standard question the base lacks are imported, so
 * loading again never overwrites an entry the workshop has edited. Returns the bases' names.
 */
export async function loadFaqs({ baseUrl, bossKey }: { baseUrl: string; bossKey: string }): Promise<string[]> {
  const headers = jsonHeaders(bossKey);
  const loaded: string[] = [];
  const files = existsSync(FAQ) ? readdirSync(FAQ).filter((f) => f.endsWith(".json")) : [];
  const listed = await listKnowledgeBases(baseUrl, headers);
  for (const file of files) {
    const name = file.replace(/\.json$/, "");
    const { description = "", entries }: { description?: string; entries: { question: string }[] } = JSON.parse(
      readFileSync(join(FAQ, file), "utf8"),
    );
    let kb = listed.find((k) => k.name === name);
    if (!kb) {
      const res = await fetch(`${baseUrl}/api/knowledge-bases`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name, description, type: "faq" }),
      });
      if (res.status !== 201) throw new Error(`creating FAQ base '${name}' failed: ${res.status} ${await res.text()}`);
      kb = await json<KnowledgeBase>(res);
    }
    const existing = await json<{ entries: { question: string }[] }>(
      await fetch(`${baseUrl}/api/knowledge-bases/${kb.id}/faq`, { headers }),
    );
    const known = new Set(existing.entries.map((e) => e.question));
    const missing = entries.filter((e) => !known.has(e.question.trim()));
    if (missing.length > 0) {
      const res = await fetch(`${baseUrl}/api/knowledge-bases/${kb.id}/faq/import`, {
        method: "POST",
        headers,
        body: JSON.stringify({ entries: missing }),
      });
      if (!res.ok) throw new Error(`importing '${name}' failed: ${res.status} ${await res.text()}`);
      const report = await json<{ results: Failure[] }>(res);
      for (const f of report.results.filter((r) => r.status === "failed")) console.error(`  ${name}: ${f.error.message}`);
    }
    loaded.push(name);
  }
  return loaded;
}

/**
 * One line per knowledge base of the boss's workshop, the ones a user created included, so the
 * start-up summary shows what the chat and MCP clients can search; `loaded` are the names just
 * loaded from knowledge/.
 */
export async function describeKnowledgeBases({
  baseUrl,
  bossKey,
  loaded,
}: {
  baseUrl: string;
  bossKey: string;
  loaded: string[];
}): Promise<string[]> {
  const res = await fetch(`${baseUrl}/api/knowledge-bases`, { headers: jsonHeaders(bossKey) });
  if (!res.ok) throw new Error(`listing knowledge bases failed: ${res.status} ${await res.text()}`);
  const { knowledge_bases } = await json<{ knowledge_bases: KnowledgeBase[] }>(res);
  return knowledge_bases.map((kb) => {
    const counts =
      kb.type === "faq"
        ? `FAQ, ${plural(kb.document_count, "entry", "entries")}`
        : `${plural(kb.document_count, "document", "documents")}, ${plural(kb.chunk_count, "chunk", "chunks")}`;
    // A name stored before names were checked may still hold an escape sequence: never sent raw to the terminal.
    return `${printable(kb.name)} (${counts}${loaded.includes(kb.name) ? ", from knowledge/" : ""})`;
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
