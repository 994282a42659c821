// Fits the score calibration (src/search/calibration.ts) from raw eval results and writes
// src/search/calibration-constants.ts. Developers only: it needs the dev sets in ../shared/eval.
//
//   npm run eval -- --raw --dump /tmp/raw.jsonl      (raw scores of every mode, every set)
//   node scripts/fit-calibration.ts /tmp/raw.jsonl   (fit, print the figures, write the constants)
//
// One logistic regression per mode over the features of relevance-features.ts, computed here by
// the same code search runs, over each query's top-10 documents by raw score, each set weighing the
// same whatever its size. Every dev query has an answer in its set, so fitted on them alone the
// model would learn that a query's best result answers and pass it at almost any score. Each query
// is therefore also fitted as one nothing answers: its list without its relevant documents,
// features recomputed, all labelled non-relevant, these lists weighing UNANSWERED times as much as
// the answered ones. Search orders results by the calibrated score, so the intercept is then set on
// what a client sees, each query's top ten under the model: on the set where it is hardest, TARGET
// of the relevant ones score 0.5 or more. WeKnora's min_score 0.5 must keep what answers, and that
// fixes the operating point rather than a hand-picked threshold. (Refitting on the model's own top
// ten, round after round, settles within two rounds and passes 1 to 6 points more of rgb-zh-dev's
// non-relevant results in three modes of four, so the fit reads the raw top ten.)
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type Calibration, probability, type ScoreModel } from "../src/search/calibration.ts";
import { DEFAULT_SYNONYMS } from "../src/search/default-synonyms.ts";
import { type FeatureCandidate, type FeatureName, relevanceFeatures } from "../src/search/relevance-features.ts";
import { Synonyms } from "../src/search/synonyms.ts";
import { auc } from "./eval/calibration-figures.ts";

const TARGET = 0.9;
// Made-up unanswered lists are not what clients ask; weighed as much as the real ones, they would
// pull the fit away from what tells answers apart in a real list (measured: docs/search-quality.md).
const UNANSWERED = 0.1;
const RIDGE = 1e-3;
const EVIDENCE: FeatureName[] = ["raw", "belowBest", "headMean", "agreement", "consensus", "coverageBelowBest"];
// The features each model reads, and the eval mode it is fitted on: the reranked mode's raw score
// holds the phrase match already; keyword scores are the keyword mode's raw score, and vector
// search runs no keyword search. The eval runs no reranked vector search: its model is the
// reranked hybrid one without the keyword scores it lacks (with them, 50% of rgb-zh-dev's
// non-relevant results pass, without them 53%: the reranked hybrid search keeps them). Every model
// reads `echo`, and every one but the vector model `quantity` and `moment` (what a passage
// states; in vector mode they passed half a point more of rgb-zh-dev's non-relevant results). The
// hybrid model also reads where a result stands among the keyword matches, which in the reranked
// mode passed 1 point more (docs/search-quality.md).
const STATED: FeatureName[] = ["echo", "quantity", "moment"];
const MODES: Record<keyof Calibration, { name: string; features: FeatureName[] }> = {
  keyword: { name: "keyword", features: [...EVIDENCE, "phrase", ...STATED] },
  vector: { name: "vector", features: [...EVIDENCE, "phrase", "echo"] },
  hybrid: { name: "hybrid", features: [...EVIDENCE, "phrase", "keyword", "keywordBelowBest", ...STATED] },
  rerank: { name: "hybrid + rerank", features: [...EVIDENCE, "keyword", ...STATED] },
  vectorRerank: { name: "hybrid + rerank", features: [...EVIDENCE, ...STATED] },
};
const OUT = join(import.meta.dirname, "..", "src", "search", "calibration-constants.ts");

interface Row {
  set: string;
  mode: string;
  query: string;
  relevant: string[];
  /** Chunks in raw order. */
  results: { id: string; doc: string; score: number }[];
}
/** One query's list (or the same list with its relevant documents taken out), chunks in raw order. */
interface List {
  set: string;
  answered: boolean;
  docs: string[];
  relevant: boolean[];
  /** Each chunk's features, in the order of the mode's feature names. */
  x: number[][];
}
interface Example {
  set: string;
  answered: boolean;
  x: number[];
  y: 0 | 1;
}

/** The dump: query rows, and per set the text of every chunk they name. */
async function readDump(files: string[]): Promise<{ rows: Row[]; texts: Map<string, string> }> {
  const rows: Row[] = [];
  const texts = new Map<string, string>();
  for (const file of files) {
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!line) continue;
      const parsed = JSON.parse(line) as Row | { set: string; texts: [string, string][] };
      if ("texts" in parsed) for (const [id, text] of parsed.texts) texts.set(`${parsed.set}/${id}`, text);
      else rows.push(parsed);
    }
  }
  return { rows, texts };
}

/** Every query's list of one mode, and the list left once its relevant documents are taken out, with features. */
function listsOf(rows: Row[], texts: Map<string, string>, mode: string, features: FeatureName[]): List[] {
  const keywordScores = new Map<string, Map<string, number>>();
  for (const row of rows.filter((r) => r.mode === "keyword")) {
    keywordScores.set(`${row.set}/${row.query}`, new Map(row.results.map((r) => [r.id, r.score])));
  }
  const wanted = new Set(features);
  const out: List[] = [];
  for (const row of rows.filter((r) => r.mode === mode)) {
    const relevant = new Set(row.relevant);
    const keyword = keywordScores.get(`${row.set}/${row.query}`) ?? new Map<string, number>();
    const canonical = new Synonyms(DEFAULT_SYNONYMS).canonicaliserFor(row.query);
    for (const answered of [true, false]) {
      const results = answered ? row.results : row.results.filter((r) => !relevant.has(r.doc));
      const candidates: FeatureCandidate[] = results.map((r) => ({
        text: texts.get(`${row.set}/${r.id}`) ?? "",
        source: r.doc,
        raw: r.score,
        keyword: keyword.get(r.id) ?? 0,
      }));
      out.push({
        set: row.set,
        answered,
        docs: results.map((r) => r.doc),
        relevant: results.map((r) => relevant.has(r.doc)),
        x: relevanceFeatures(row.query, candidates, wanted, canonical).map((f) => features.map((name) => f[name])),
      });
    }
  }
  return out;
}

const linear = (coefficients: number[], x: number[]) =>
  x.reduce((z, v, j) => z + v * (coefficients[j + 1] as number), coefficients[0] as number);

/** The chunks a client sees in the list ordered by `score`: each of the first ten documents by its best chunk. */
function topTen(list: List, score: (i: number) => number): number[] {
  const order = list.x.map((_, i) => i).sort((a, b) => score(b) - score(a) || a - b);
  const seen = new Set<string>();
  const out: number[] = [];
  for (const i of order) {
    const doc = list.docs[i] as string;
    if (seen.has(doc)) continue;
    seen.add(doc);
    out.push(i);
    if (seen.size === 10) break;
  }
  return out;
}

/** The top ten of every list by raw score: what the fit learns from. */
function examples(lists: List[]): Example[] {
  const out: Example[] = [];
  for (const list of lists) {
    for (const i of topTen(list, (i) => (list.x[i] as number[])[0] as number)) {
      out.push({ set: list.set, answered: list.answered, x: list.x[i] as number[], y: list.relevant[i] ? 1 : 0 });
    }
  }
  return out;
}

/** The coefficients with the intercept moved so that, on the set where fewest pass, TARGET of the relevant top-ten results score 0.5 or more. */
function atTarget(lists: List[], coefficients: number[]): number[] {
  const relevantScores = new Map<string, number[]>();
  for (const list of lists.filter((l) => l.answered)) {
    const score = (i: number) => linear(coefficients, list.x[i] as number[]);
    for (const i of topTen(list, score)) {
      if (!list.relevant[i]) continue;
      if (!relevantScores.has(list.set)) relevantScores.set(list.set, []);
      relevantScores.get(list.set)?.push(score(i));
    }
  }
  if (relevantScores.size === 0) throw new Error("no relevant result in any top ten: is the dump raw and complete?");
  // The result at the (1 − TARGET) quantile binds (the epsilon keeps 0.1 × 10 from flooring to 0), and
  // a hundredth below it keeps the constants' rounding from dropping it under 0.5.
  const binding = (zs: number[]) => zs.sort((a, b) => a - b)[Math.floor((1 - TARGET) * zs.length + 1e-9)] as number;
  const threshold = Math.min(...[...relevantScores.values()].map(binding)) - 0.01;
  return [(coefficients[0] as number) - threshold, ...coefficients.slice(1)];
}

/**
 * Weighted logistic regression with a small ridge, by Newton's method, on standardised features
 * (so one ridge suits every feature's scale); returns the intercept and weights on the raw scale.
 */
function fitLogistic(data: Example[], weight: (e: Example) => number): number[] {
  const k = (data[0] as Example).x.length;
  const mean = Array.from({ length: k }, (_, j) => data.reduce((s, e) => s + (e.x[j] as number), 0) / data.length);
  const sd = mean.map((m, j) => Math.sqrt(data.reduce((s, e) => s + ((e.x[j] as number) - m) ** 2, 0) / data.length) || 1);
  const z = data.map((e) => [1, ...e.x.map((v, j) => (v - (mean[j] as number)) / (sd[j] as number))]);
  const m = new Array<number>(k + 1).fill(0);
  for (let iteration = 0; iteration < 100; iteration++) {
    const g = m.map((v, i) => (i === 0 ? 0 : -RIDGE * v));
    const h = m.map((_, i) => m.map((_, j) => (i === j && i > 0 ? RIDGE : 0)));
    data.forEach((e, n) => {
      const f = z[n] as number[];
      const p = 1 / (1 + Math.exp(-f.reduce((s, v, i) => s + v * (m[i] as number), 0)));
      const w = weight(e);
      for (let i = 0; i <= k; i++) {
        g[i] = (g[i] as number) + w * (e.y - p) * (f[i] as number);
        const row = h[i] as number[];
        for (let j = 0; j <= k; j++) row[j] = (row[j] as number) + w * p * (1 - p) * (f[i] as number) * (f[j] as number);
      }
    });
    const step = solve(h, g);
    step.forEach((d, i) => {
      m[i] = (m[i] as number) + d;
    });
    if (step.reduce((sum, d) => sum + Math.abs(d), 0) < 1e-10) break;
  }
  const weights = m.slice(1).map((v, j) => v / (sd[j] as number));
  const intercept = (m[0] as number) - weights.reduce((s, w, j) => s + w * (mean[j] as number), 0);
  return [intercept, ...weights];
}

/** Solves the small system h·x = g by Gaussian elimination with partial pivoting. */
function solve(h: number[][], g: number[]): number[] {
  const a = h.map((row, i) => [...row, g[i] as number]);
  const n = g.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]?.[col] as number) > Math.abs(a[pivot]?.[col] as number)) pivot = r;
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    const top = a[col] as number[];
    for (let r = col + 1; r < n; r++) {
      const row = a[r] as number[];
      const factor = (row[col] as number) / (top[col] as number);
      for (let c = col; c <= n; c++) row[c] = (row[c] as number) - factor * (top[c] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = a[r] as number[];
    let sum = row[n] as number;
    for (let c = r + 1; c < n; c++) sum -= (row[c] as number) * (x[c] as number);
    x[r] = sum / (row[r] as number);
  }
  return x;
}

function toModel(coefficients: number[], features: FeatureName[]): ScoreModel {
  const weights: Partial<Record<FeatureName, number>> = {};
  features.forEach((name, j) => {
    weights[name] = Math.round((coefficients[j + 1] as number) * 1e4) / 1e4;
  });
  return { input: "score", intercept: Math.round((coefficients[0] as number) * 1e4) / 1e4, weights };
}

/** Per set, what a client sees under the model: the share of relevant and of non-relevant top-ten results at 0.5 or more, and more. */
function figures(model: ScoreModel, features: FeatureName[], lists: List[]) {
  const p = (x: number[]) => probability(Object.fromEntries(features.map((name, j) => [name, x[j] as number])) as never, model);
  const kept = (ps: number[]) => ps.filter((v) => v >= 0.5).length / Math.max(ps.length, 1);
  return [...new Set(lists.map((l) => l.set))].map((set) => {
    const rel: number[] = [];
    const non: number[] = [];
    const unanswered: number[] = [];
    for (const list of lists.filter((l) => l.set === set)) {
      const top = topTen(list, (i) => p(list.x[i] as number[]));
      if (!list.answered) {
        if (top.length > 0) unanswered.push(p(list.x[top[0] as number] as number[]));
        continue;
      }
      for (const i of top) (list.relevant[i] ? rel : non).push(p(list.x[i] as number[]));
    }
    return { set, relevantKept: kept(rel), nonRelevantKept: kept(non), auc: auc(rel, non), unansweredKept: kept(unanswered) };
  });
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/fit-calibration.ts RAW_DUMP.jsonl [...]");
  process.exit(1);
}
const { rows, texts } = await readDump(files);
const fitted = new Map<string, ScoreModel>();
for (const [key, { name, features }] of Object.entries(MODES)) {
  const lists = listsOf(rows, texts, name, features);
  const data = examples(lists);
  // Each set, and within it the answered and the unanswered lists, weigh the same whatever their size.
  const count = new Map<string, number>();
  const group = (e: Example) => `${e.set}/${e.answered}`;
  for (const e of data) count.set(group(e), (count.get(group(e)) ?? 0) + 1);
  const coefficients = atTarget(
    lists,
    fitLogistic(data, (e) => (e.answered ? 1 : UNANSWERED) / (count.get(group(e)) as number)),
  );
  const model = toModel(coefficients, features);
  fitted.set(key, model);
  console.log(`\n${key} (fitted on ${name}): ${JSON.stringify(model)}`);
  for (const f of figures(model, features, lists)) {
    console.log(
      `  ${f.set.padEnd(12)} relevant ≥ 0.5: ${f.relevantKept.toFixed(3)}  non-relevant ≥ 0.5: ${f.nonRelevantKept.toFixed(3)}  AUC ${f.auc.toFixed(3)}  unanswered best ≥ 0.5: ${f.unansweredKept.toFixed(3)}`,
    );
  }
}

const literal = (key: string) => JSON.stringify(fitted.get(key)).replace(/"(\w+)":/g, "$1:");
writeFileSync(
  OUT,
  `// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { CalibrationTable } from "./calibration.ts";

export const CALIBRATION: CalibrationTable = {
  keyword: ${literal("keyword")},
  vector: { local: ${literal("vector")}, "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } } },
  hybrid: { local: ${literal("hybrid")}, "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } } },
  rerank: { local: ${literal("rerank")}, "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } } },
  vectorRerank: { local: ${literal("vectorRerank")}, "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } } },
};
`,
);
console.log(`\nwrote ${OUT} (npm run format lays it out)`);
