// What wrangler.toml's [env.production] declares, read with a TOML parser, and the few edits
// `npm run deploy` makes to it (a created resource's id, the deployed hosts), made line by line so
// that its comments and layout stay as the operator left them, each checked by reading it again.
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "smol-toml";

export interface ProductionConfig {
  /** The Worker's name in production. */
  name: string;
  d1: { binding: string; database_name: string; database_id: string }[];
  kv: { binding: string; id: string }[];
  vectorize: { binding: string; index_name: string }[];
  workflows: { name: string; binding: string; class_name: string }[];
  /** The Workers AI binding's name, if any. */
  ai: string | null;
  vars: Record<string, string>;
  /** Secrets wrangler refuses to deploy without (`[env.production.secrets] required`). */
  requiredSecrets: string[];
  /** Custom domains and routes the Worker is served on besides workers.dev. */
  routes: string[];
}

type Table = Record<string, unknown>;
const tables = (value: unknown): Table[] => (Array.isArray(value) ? (value as Table[]) : []);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Reads [env.production] of a wrangler.toml. */
export function readProductionConfig(path: string): ProductionConfig {
  const toml = parse(readFileSync(path, "utf8")) as Table;
  const production = ((toml.env as Table | undefined)?.production ?? {}) as Table;
  const vars = Object.fromEntries(Object.entries((production.vars ?? {}) as Table).map(([k, v]) => [k, String(v)]));
  const routes = tables(production.routes).map((route) => text(route.pattern));
  if (typeof production.route === "string") routes.push(production.route);
  return {
    name: text(production.name) || text(toml.name),
    d1: tables(production.d1_databases).map((d) => ({
      binding: text(d.binding),
      database_name: text(d.database_name),
      database_id: text(d.database_id),
    })),
    kv: tables(production.kv_namespaces).map((k) => ({ binding: text(k.binding), id: text(k.id) })),
    vectorize: tables(production.vectorize).map((v) => ({ binding: text(v.binding), index_name: text(v.index_name) })),
    workflows: tables(production.workflows).map((w) => ({
      name: text(w.name),
      binding: text(w.binding),
      class_name: text(w.class_name),
    })),
    ai: text((production.ai as Table | undefined)?.binding) || null,
    vars,
    requiredSecrets: (((production.secrets as Table | undefined)?.required as unknown[]) ?? []).map(String),
    routes: routes.filter(Boolean),
  };
}

/** Splits the file into its tables, each starting at its header line (the first part has none). */
function blocks(source: string): string[] {
  return source.split(/^(?=\[)/m);
}

/** Sets `key = "value"` in the first block that `matches`, replacing its line or adding one after the header. */
function setInBlock(source: string, matches: (block: string) => boolean, key: string, value: string): string {
  const parts = blocks(source);
  const index = parts.findIndex(matches);
  if (index === -1) throw new Error(`wrangler.toml has no table for ${key} = ${JSON.stringify(value)}`);
  const block = parts[index] as string;
  const line = `${key} = ${JSON.stringify(value)}`;
  const pattern = new RegExp(`^${key}\\s*=.*$`, "m");
  parts[index] = pattern.test(block) ? block.replace(pattern, line) : block.replace(/^(\[[^\n]*\]\n)/, `$1${line}\n`);
  return parts.join("");
}

const isTable = (header: string, binding?: { key: string; value: string }) => (block: string) =>
  block.startsWith(`${header}\n`) &&
  (binding === undefined || new RegExp(`^${binding.key}\\s*=\\s*"${binding.value}"\\s*$`, "m").test(block));

/** Writes edits to wrangler.toml, then reads it again to be sure each took. */
function edit(path: string, change: (source: string) => string, check: (config: ProductionConfig) => boolean): void {
  const before = readFileSync(path, "utf8");
  const after = change(before);
  writeFileSync(path, after);
  if (!check(readProductionConfig(path))) {
    writeFileSync(path, before);
    throw new Error(`Could not edit ${path} as intended; it is left as it was.`);
  }
}

/** Writes a D1 database's id into its `[[env.production.d1_databases]]` binding. */
export function setDatabaseId(path: string, binding: string, id: string): void {
  edit(
    path,
    (source) =>
      setInBlock(source, isTable("[[env.production.d1_databases]]", { key: "binding", value: binding }), "database_id", id),
    (config) => config.d1.find((d) => d.binding === binding)?.database_id === id,
  );
}

/** Writes a KV namespace's id into its `[[env.production.kv_namespaces]]` binding. */
export function setNamespaceId(path: string, binding: string, id: string): void {
  edit(
    path,
    (source) => setInBlock(source, isTable("[[env.production.kv_namespaces]]", { key: "binding", value: binding }), "id", id),
    (config) => config.kv.find((k) => k.binding === binding)?.id === id,
  );
}

/** Sets a var of `[env.production.vars]`. */
export function setProductionVar(path: string, name: string, value: string): void {
  edit(
    path,
    (source) => setInBlock(source, isTable("[env.production.vars]"), name, value),
    (config) => config.vars[name] === value,
  );
}
