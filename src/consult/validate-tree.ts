import { parse as parseYaml } from "yaml";
import { sha256Hex } from "../sha256.ts";
import { BACK, END, PROVIDE_MORE_INFO, type Tree, TreeFileSchema } from "./tree-schema.ts";

export interface TreeReport {
  file: string;
  tree: Tree | null;
  errors: string[];
  warnings: string[];
  /** Where the tree uses a reserved name; when not empty, these are the errors. */
  reserved: string[];
}

export const MAX_TREE_BYTES = 200_000;
const CJK = /[\u3400-\u9fff]/;

/**
 * Names JavaScript objects have built in. An id or key with one of these names could reach
 * `Object.prototype` wherever it indexes an object (`nodes["constructor"]` is a function, and a
 * tree with id `__proto__` once broke every workshop's consultations), so no tree may use them.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Where a tree, parsed but not yet validated, uses a reserved name as its id, its root, a node
 * id, an option id or a `next_node`. Reads own properties only, in one pass over the tree.
 */
export function reservedNamesIn(raw: unknown): string[] {
  if (!isRecord(raw)) return [];
  const found: string[] = [];
  const own = (object: Record<string, unknown>, key: string) => (Object.hasOwn(object, key) ? object[key] : undefined);
  const check = (value: unknown, where: string) => {
    if (typeof value === "string" && RESERVED_NAMES.has(value)) found.push(`${where} '${value}'`);
  };
  check(own(raw, "id"), "tree id");
  check(own(raw, "root"), "root");
  const nodes = own(raw, "nodes");
  if (!isRecord(nodes)) return found;
  for (const [nodeId, node] of Object.entries(nodes)) {
    check(nodeId, "node id");
    const options = isRecord(node) ? own(node, "options") : undefined;
    if (!Array.isArray(options)) continue;
    for (const option of options) {
      if (!isRecord(option)) continue;
      check(own(option, "id"), `node '${nodeId}': option id`);
      check(own(option, "next_node"), `node '${nodeId}': next_node`);
    }
  }
  return found;
}

/**
 * Parses and checks one tree file. Every problem names the file and, where it has one, the node;
 * `tree` is null when any error was found, so a broken tree is reported and never served.
 */
export async function validateTreeFile(file: string, text: string): Promise<TreeReport> {
  const report: TreeReport = { file, tree: null, errors: [], warnings: [], reserved: [] };
  const fail = (message: string) => {
    report.errors.push(`${file}: ${message}`);
    return report;
  };
  if (new TextEncoder().encode(text).length > MAX_TREE_BYTES) return fail(`larger than ${MAX_TREE_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    return fail(`cannot be parsed as ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"}: ${(error as Error).message}`);
  }
  report.reserved = reservedNamesIn(raw);
  if (report.reserved.length > 0) {
    return fail(
      `uses reserved names (${report.reserved.join(", ")}): names built into JavaScript objects, such as __proto__ and constructor, cannot be ids`,
    );
  }
  const parsed = TreeFileSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, node, ...rest] = issue.path.map(String);
      const where =
        first === "nodes" && node
          ? `node '${node}'${rest.length ? ` (${rest.join(".")})` : ""}`
          : issue.path.join(".") || "the file";
      report.errors.push(`${file}: ${where}: ${issue.message}`);
    }
    return report;
  }
  const file_ = parsed.data;
  const nodes = file_.nodes;
  if (!Object.hasOwn(nodes, file_.root)) report.errors.push(`${file}: root '${file_.root}' is not a node`);

  for (const [nodeId, node] of Object.entries(nodes)) {
    const seen = new Set<string>();
    for (const option of node.options) {
      if (seen.has(option.id)) report.errors.push(`${file}: node '${nodeId}': option id '${option.id}' appears twice`);
      seen.add(option.id);
      if (option.id === PROVIDE_MORE_INFO) {
        report.errors.push(`${file}: node '${nodeId}': option id '${PROVIDE_MORE_INFO}' is reserved for free-text input`);
      }
      if (option.next_node !== null && !Object.hasOwn(nodes, option.next_node)) {
        report.errors.push(`${file}: node '${nodeId}': option '${option.id}' leads to missing node '${option.next_node}'`);
      }
    }
  }
  if (report.errors.length > 0) return report;

  const reachable = reachableFrom(file_.root, nodes);
  for (const nodeId of Object.keys(nodes)) {
    if (!reachable.has(nodeId)) report.warnings.push(`${file}: node '${nodeId}' cannot be reached from root '${file_.root}'`);
  }
  for (const nodeId of trappedNodes(nodes)) {
    report.errors.push(`${file}: node '${nodeId}' has no way out: none of its paths reaches a leaf or an 'end'`);
  }
  if (report.errors.length > 0) return report;

  const language = file_.language ?? (CJK.test(file_.title) ? "zh" : "en");
  report.tree = { ...file_, language, version: (await sha256Hex(text)).slice(0, 12) };
  return report;
}

type Nodes = Record<string, { options: { id: string; next_node: string | null }[] }>;

/** Forward moves only: `back` goes wherever the session came from, so it is not an edge. */
function forward(node: Nodes[string]) {
  return node.options.filter((o) => o.id !== BACK && o.id !== END);
}

function reachableFrom(start: string, nodes: Nodes): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const node = Object.hasOwn(nodes, id) ? nodes[id] : undefined;
    if (seen.has(id) || !node) continue;
    seen.add(id);
    for (const option of forward(node)) if (option.next_node) stack.push(option.next_node);
  }
  return seen;
}

/** Nodes from which no leaf (no options) and no ending option (`end`, `next_node: null`) can be reached. */
function trappedNodes(nodes: Nodes): string[] {
  const exits = new Set(
    Object.entries(nodes)
      .filter(([, node]) => forward(node).length === 0 || node.options.some((o) => o.next_node === null))
      .map(([id]) => id),
  );
  let grew = true;
  while (grew) {
    grew = false;
    for (const [id, node] of Object.entries(nodes)) {
      if (!exits.has(id) && forward(node).some((o) => o.next_node && exits.has(o.next_node))) {
        exits.add(id);
        grew = true;
      }
    }
  }
  return Object.keys(nodes).filter((id) => !exits.has(id));
}
