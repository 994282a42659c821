import { detectLanguage, type Language, MESSAGES } from "./messages.ts";
import { bestMatch, type Candidate, coverage, matchText, withParts } from "./text-match.ts";
import { BACK, END, PROVIDE_MORE_INFO, type Tree, type TreeNode } from "./tree-schema.ts";

/** Where a session stands. `treeId: null` is the topic chooser shown when no tree matched. */
export interface Step {
  treeId: string | null;
  nodeId: string;
}

export interface PathEntry extends Step {
  option: string;
  at: string;
}

export interface FreeInput extends Step {
  text: string;
  understood: boolean;
  at: string;
}

/** The whole mutable state of a consultation; the engine returns a new one on every move. */
export interface SessionRecord {
  language: Language;
  step: Step;
  history: Step[];
  path: PathEntry[];
  inputs: FreeInput[];
  complete: boolean;
}

/**
 * The trees a session runs on, snapshotted when it starts so later edits cannot break it. A `Map`,
 * since tree ids come from uploads and must never index a plain object.
 */
export interface Catalog {
  order: string[];
  trees: Map<string, Tree>;
}

function treeOf(catalog: Catalog, treeId: string): Tree {
  return catalog.trees.get(treeId) as Tree;
}

/** A tree's node by id, own properties only, so no id can reach `Object.prototype`. */
export function nodeOf(tree: Pick<Tree, "nodes">, nodeId: string): TreeNode | undefined {
  return Object.hasOwn(tree.nodes, nodeId) ? tree.nodes[nodeId] : undefined;
}

export interface Option {
  id: string;
  description: string;
}

/** The `SessionState` of the design, less the session id. */
export interface SessionView {
  response: string;
  current_step: string;
  options: Option[];
  is_complete: boolean;
}

export type NavigateResult =
  | { ok: true; record: SessionRecord; notice?: string }
  | { ok: false; code: "bad_request" | "invalid_option"; message: string };

const CHOOSER = "choose_topic";

/** Picks the starting step for a first question: the best trigger match, else the topic chooser. */
export function startSession(catalog: Catalog, userQuery: string): SessionRecord {
  const language = detectLanguage(userQuery);
  const record: SessionRecord = {
    language,
    step: { treeId: null, nodeId: CHOOSER },
    history: [],
    path: [],
    inputs: [],
    complete: false,
  };
  const start = matchStart(catalog, userQuery);
  if (start) record.step = start;
  else if (catalog.order.length === 1)
    record.step = { treeId: catalog.order[0] as string, nodeId: rootOf(catalog, catalog.order[0] as string) };
  return record;
}

function rootOf(catalog: Catalog, treeId: string): string {
  return treeOf(catalog, treeId).root;
}

/**
 * Trigger matching over every tree: node triggers beat tree triggers of equal strength (they are
 * more specific); two different trees matching equally well is ambiguous and goes to the chooser.
 */
function matchStart(catalog: Catalog, text: string): Step | null {
  const query = matchText(text);
  let best: { step: Step; score: number } | null = null;
  let ambiguous = false;
  for (const treeId of catalog.order) {
    const tree = treeOf(catalog, treeId);
    const entries: { step: Step; phrases: string[]; bonus: number }[] = [
      { step: { treeId, nodeId: tree.root }, phrases: [...tree.triggers, tree.title], bonus: 0 },
      ...Object.entries(tree.nodes)
        .filter(([, node]) => node.triggers.length > 0)
        .map(([nodeId, node]) => ({ step: { treeId, nodeId }, phrases: node.triggers, bonus: 0.01 })),
    ];
    for (const entry of entries) {
      const raw = Math.max(0, ...entry.phrases.map((p) => coverage(query, p)));
      if (raw < 0.6) continue;
      const score = raw + entry.bonus;
      if (!best || score > best.score + 0.005) {
        ambiguous = false;
        best = { step: entry.step, score };
      } else if (Math.abs(score - best.score) <= 0.005 && best.step.treeId !== treeId) {
        ambiguous = true;
      }
    }
  }
  return best && !ambiguous ? best.step : null;
}

/** What the caller sees at the current step. */
export function viewOf(catalog: Catalog, record: SessionRecord, notice?: string): SessionView {
  const prefix = notice ? `${notice}\n\n` : "";
  const { step } = record;
  if (step.treeId === null) {
    const m = MESSAGES[record.language];
    const options = catalog.order.map((id) => ({ id, description: treeOf(catalog, id).title }));
    return { response: prefix + m.choose, current_step: m.chooserStep, options, is_complete: record.complete };
  }
  const tree = treeOf(catalog, step.treeId);
  const node = nodeOf(tree, step.nodeId) as TreeNode;
  const m = MESSAGES[tree.language];
  const title = node.title ?? step.nodeId;
  if (record.complete) {
    const ended = isLeaf(node) ? `${node.response}\n\n${m.reached}` : m.ended;
    return { response: prefix + ended + summary(catalog, record), current_step: title, options: [], is_complete: true };
  }
  const options: Option[] = node.options.map(({ id, description }) => ({ id, description }));
  if (record.history.length > 0 && !options.some((o) => o.id === BACK)) options.push({ id: BACK, description: m.back });
  if (!options.some((o) => o.id === END)) options.push({ id: END, description: m.end });
  return { response: prefix + node.response, current_step: title, options, is_complete: false };
}

function summary(catalog: Catalog, record: SessionRecord): string {
  const choices = standingChoices(record.path)
    .map((entry) => describeOption(catalog, entry, entry.option))
    .filter((text): text is string => Boolean(text));
  if (choices.length === 0) return "";
  const language = record.step.treeId ? treeOf(catalog, record.step.treeId).language : record.language;
  return `\n\n${MESSAGES[language].yourChoices}${choices.map((c) => `\n- ${c}`).join("")}`;
}

/**
 * The choices that led to where the session stands. The path keeps every move (it is the
 * session's record), so a step that was gone back over is undone here: `back` withdraws the
 * latest choice still standing, and the choice made again in its place counts once.
 */
function standingChoices(path: PathEntry[]): PathEntry[] {
  const standing: PathEntry[] = [];
  for (const entry of path) {
    if (entry.option === BACK) standing.pop();
    else if (entry.option !== END) standing.push(entry);
  }
  return standing;
}

function describeOption(catalog: Catalog, step: Step, optionId: string): string | undefined {
  if (step.treeId === null) return catalog.trees.get(optionId)?.title;
  const tree = catalog.trees.get(step.treeId);
  return tree ? nodeOf(tree, step.nodeId)?.options.find((o) => o.id === optionId)?.description : undefined;
}

/** A node with no options at all ends the consultation; one offering only back/end is still open. */
function isLeaf(node: TreeNode): boolean {
  return node.options.length === 0;
}

/** Applies one `navigate_session` call. Invalid moves return an error and leave `record` untouched. */
export function navigate(
  catalog: Catalog,
  record: SessionRecord,
  optionId: string,
  userInput: string | undefined,
  now: string,
): NavigateResult {
  const next = structuredClone(record);
  const { step } = next;
  if (optionId === END) {
    next.path.push({ ...step, option: END, at: now });
    next.complete = true;
    return { ok: true, record: next };
  }
  if (optionId === BACK) {
    const previous = next.history.pop();
    if (!previous) return { ok: true, record: next, notice: MESSAGES[languageAt(catalog, next)].alreadyAtStart };
    next.path.push({ ...step, option: BACK, at: now });
    next.step = previous;
    return { ok: true, record: next };
  }
  if (optionId === PROVIDE_MORE_INFO) {
    const text = userInput?.trim();
    if (!text) {
      return {
        ok: false,
        code: "bad_request",
        message: `'${PROVIDE_MORE_INFO}' needs user_input: the user's own words to match against the options.`,
      };
    }
    const matched = matchFreeText(catalog, next, text);
    next.inputs.push({ ...step, text, understood: matched !== null, at: now });
    if (matched === null) return { ok: true, record: next, notice: MESSAGES[languageAt(catalog, next)].notUnderstood(text) };
    return move(catalog, next, matched, now);
  }
  if (!optionsAt(catalog, step).some((o) => o.id === optionId)) {
    const valid = [
      ...optionsAt(catalog, step).map((o) => o.id),
      ...(record.history.length > 0 ? [BACK] : []),
      END,
      PROVIDE_MORE_INFO,
    ];
    return {
      ok: false,
      code: "invalid_option",
      message: `Option '${optionId}' is not offered at step '${step.nodeId}'. Valid option ids: ${[...new Set(valid)].join(", ")}.`,
    };
  }
  if (userInput?.trim()) next.inputs.push({ ...step, text: userInput.trim(), understood: true, at: now });
  return move(catalog, next, optionId, now);
}

function languageAt(catalog: Catalog, record: SessionRecord): Language {
  return record.step.treeId ? treeOf(catalog, record.step.treeId).language : record.language;
}

function optionsAt(catalog: Catalog, step: Step): { id: string; description: string; next_node: string | null }[] {
  if (step.treeId === null) {
    return catalog.order.map((id) => ({
      id,
      description: treeOf(catalog, id).title,
      next_node: treeOf(catalog, id).root,
    }));
  }
  return nodeOf(treeOf(catalog, step.treeId), step.nodeId)?.options ?? [];
}

function move(catalog: Catalog, record: SessionRecord, optionId: string, now: string): NavigateResult {
  const { step } = record;
  const option = optionsAt(catalog, step).find((o) => o.id === optionId);
  if (!option) return { ok: false, code: "invalid_option", message: `Option '${optionId}' is not offered here.` };
  record.path.push({ ...step, option: optionId, at: now });
  if (option.next_node === null) {
    record.complete = true;
    return { ok: true, record };
  }
  const treeId = step.treeId ?? optionId;
  record.history.push(step);
  record.step = { treeId, nodeId: option.next_node };
  record.complete = isLeaf(nodeOf(treeOf(catalog, treeId), option.next_node) as TreeNode);
  return { ok: true, record };
}

/**
 * Maps free text to one of the current options: an option number ("2"), the option's own words,
 * or the triggers and titles of the nodes that lie behind it.
 */
function matchFreeText(catalog: Catalog, record: SessionRecord, text: string): string | null {
  const options = optionsAt(catalog, record.step).filter((o) => o.id !== BACK && o.id !== END);
  const index = /^\s*(\d{1,2})\s*$/.exec(text);
  if (index) return options[Number(index[1]) - 1]?.id ?? null;
  const candidates: Candidate<string>[] = options.map((option) => {
    const treeId = record.step.treeId ?? option.id;
    const tree = treeOf(catalog, treeId);
    const phrases = [...withParts(option.description), option.id];
    if (record.step.treeId === null) phrases.push(...tree.triggers);
    for (const nodeId of behind(tree, option.next_node)) {
      const node = nodeOf(tree, nodeId) as TreeNode;
      phrases.push(...node.triggers, ...(node.title ? withParts(node.title) : []));
    }
    return { value: option.id, phrases };
  });
  return bestMatch(text, candidates);
}

/** The nodes reachable through `start` without going back. */
function behind(tree: Tree, start: string | null): string[] {
  const seen = new Set<string>();
  const stack = start ? [start] : [];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const node = nodeOf(tree, id);
    if (seen.has(id) || !node) continue;
    seen.add(id);
    for (const option of node.options) {
      if (option.id !== BACK && option.next_node) stack.push(option.next_node);
    }
  }
  return [...seen];
}
