// What the Cloudflare account holds, and what `npm run deploy` creates in it, through wrangler (its
// JSON outputs where it has them). Every call names the configuration file, so a test can point
// the script at its own copy, and `WEFT_WRANGLER` at a stand-in for wrangler.
import { runWrangler } from "../lib.ts";

/** A wrangler run that failed: what was run and what it said. */
export class WranglerFailed extends Error {
  constructor(args: string[], output: string) {
    super(`wrangler ${args.join(" ")} failed:\n${output.trim().slice(-2000)}`);
    this.name = "WranglerFailed";
  }
}

/** Runs wrangler and returns what it printed; throws `WranglerFailed` when it fails. */
export function wranglerOutput(args: string[], input?: string): string {
  const run = runWrangler(args, input === undefined ? {} : { input });
  if (run.status !== 0) throw new WranglerFailed(args, `${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** The JSON wrangler printed, from the first `[` or `{` (some commands print a line before it). */
export function jsonOutput<T>(args: string[]): T {
  const out = wranglerOutput(args);
  const start = out.search(/^[[{]/m);
  if (start === -1) throw new WranglerFailed(args, `expected JSON, got: ${out}`);
  return JSON.parse(out.slice(start)) as T;
}

/** Fails early, with the command to run, when wrangler is not signed in to an account. */
export function requireLogin(): void {
  const run = runWrangler(["whoami"]);
  if (run.status !== 0 || /not authenticated|You are not logged in/i.test(`${run.stdout}${run.stderr}`)) {
    throw new Error("wrangler is not signed in to a Cloudflare account: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN).");
  }
}

export interface Account {
  d1: { uuid: string; name: string }[];
  kv: { id: string; title: string }[];
  vectorize: { name: string; config?: { dimensions?: number; metric?: string } }[];
  workflows: { name: string; script_name?: string }[];
}

/** The account's D1 databases, KV namespaces, Vectorize indexes and Workflows. */
export function readAccount(config: string): Account {
  return {
    d1: jsonOutput(["d1", "list", "--json", "-c", config]),
    kv: jsonOutput(["kv", "namespace", "list", "-c", config]),
    vectorize: jsonOutput(["vectorize", "list", "--json", "-c", config]),
    workflows: allWorkflows(config),
  };
}

/** The metadata properties a Vectorize index can filter on. */
export function metadataIndexes(config: string, index: string): { propertyName: string; indexType: string }[] {
  return jsonOutput(["vectorize", "list-metadata-index", index, "--json", "-c", config]);
}

/**
 * Every Workflow of the account: `workflows list` gives one page of the API's listing, so pages are
 * read until one brings nothing new (empty, or the API's last page again). The page size asked for
 * may be more than the API gives, so a short page is not taken for the last.
 */
function allWorkflows(config: string): { name: string; script_name?: string }[] {
  const all = new Map<string, { name: string; script_name?: string }>();
  for (let page = 1; ; page++) {
    const args = ["workflows", "list", "--json", "--per-page", "100", "--page", String(page), "-c", config];
    const found = jsonOutput<{ name: string; script_name?: string }[]>(args).filter((w) => !all.has(w.name));
    if (found.length === 0) return [...all.values()];
    for (const w of found) all.set(w.name, w);
  }
}

/** The names of the production Worker's secrets; null when the Worker does not exist yet. */
export function secretNames(config: string): string[] | null {
  const args = ["secret", "list", "--env", "production", "--format", "json", "-c", config];
  const run = runWrangler(args);
  if (run.status !== 0) {
    // The Worker has never been deployed, so it has no secrets yet. wrangler 4 says `Worker "weft"
    // (env: production) not found.` (cli.js, `secret list`); older ones gave the API's 10007.
    if (/Worker "[^"]*"[^\n]* not found|10007|does not exist/i.test(`${run.stdout}${run.stderr}`)) return null;
    throw new WranglerFailed(args, `${run.stdout}\n${run.stderr}`);
  }
  const start = run.stdout.search(/^\[/m);
  return (JSON.parse(run.stdout.slice(start)) as { name: string }[]).map((s) => s.name);
}

/** The migrations a database has not applied, as `wrangler d1 migrations list` names them. */
export function pendingMigrations(config: string, binding: string): string[] {
  const out = wranglerOutput(["d1", "migrations", "list", binding, "--remote", "--env", "production", "-c", config]);
  return [...new Set(out.match(/\b\d{4}_[A-Za-z0-9_-]+\.sql\b/g) ?? [])];
}

/** Applies a database's pending migrations (non-interactive: wrangler skips its question) and returns their names. */
export function applyMigrations(config: string, binding: string): string[] {
  const out = wranglerOutput(["d1", "migrations", "apply", binding, "--remote", "--env", "production", "-c", config]);
  return [...new Set(out.match(/\b\d{4}_[A-Za-z0-9_-]+\.sql\b/g) ?? [])];
}

/** Creates a D1 database and returns its id, read back from the account's list. */
export function createDatabase(config: string, name: string): string {
  wranglerOutput(["d1", "create", name, "-c", config]);
  const made = jsonOutput<Account["d1"]>(["d1", "list", "--json", "-c", config]).find((d) => d.name === name);
  if (!made) throw new Error(`wrangler d1 create ${name} succeeded, but the database is not in the account's list.`);
  return made.uuid;
}

/** Creates a KV namespace titled `title` and returns its id, read back from the account's list. */
export function createNamespace(config: string, title: string): string {
  wranglerOutput(["kv", "namespace", "create", title, "-c", config]);
  const made = jsonOutput<Account["kv"]>(["kv", "namespace", "list", "-c", config]).find((k) => k.title === title);
  if (!made) throw new Error(`wrangler kv namespace create ${title} succeeded, but the namespace is not in the account's list.`);
  return made.id;
}

/** Creates a Vectorize index for bge-m3's vectors (1,024 dimensions, cosine). */
export function createVectorIndex(config: string, name: string): void {
  wranglerOutput(["vectorize", "create", name, "--dimensions=1024", "--metric=cosine", "-c", config]);
}

/** Lets a Vectorize index filter on a string metadata property. */
export function createMetadataIndex(config: string, index: string, property: string): void {
  wranglerOutput(["vectorize", "create-metadata-index", index, "--propertyName", property, "--type", "string", "-c", config]);
}
