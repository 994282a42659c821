// Fits the score calibration (src/search/calibration.ts) from raw eval results and writes
// src/search/calibration-constants.ts. Developers only: it needs the dev sets in ../shared/eval.
//
//   npm run eval -- --raw --dump /tmp/raw.jsonl      (raw scores of every mode, every set)
//   node scripts/fit-calibration.ts /tmp/raw.jsonl   (fit, print the figures, write the constants)
//
// One logistic regression per mode, p = σ(a + b·raw + c·(raw − best)) with best the raw score of
// the query's first result, over each query's top-10 documents (what a client sees), each set
// weighing the same whatever its size. Every dev query has an answer in its set, so fitted on them
// alone the model learns that a query's best result answers and passes it at almost any raw score
// (keyword: 89–95% of the best results of cmrc2018-zh and xquad queries with their answers taken
// out, against 34–47% for the raw score alone). Each query is therefore also fitted as one nothing answers: its list
// without its relevant documents, all labelled non-relevant, these lists weighing as much as the
// answered ones. Relevant results are weighted by w, the smallest w on a grid for which at least
// TARGET of the relevant results score 0.5 or more on every set: WeKnora's min_score 0.5 must keep
// what answers, and that fixes the cost ratio of the two errors rather than a hand-picked threshold.
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { auc } from "./eval/calibration-figures.ts";

const TARGET = 0.9;
// Relevant weights from 1 to 128 in steps of a fourth root of 2, so the fit stops close to TARGET.
const WEIGHTS = Array.from({ length: 29 }, (_, k) => 2 ** (k / 4));
const RIDGE = 1e-4;
const MODES = { keyword: "keyword", vector: "vector", hybrid: "hybrid", rerank: "hybrid + rerank" } as const;
const OUT = join(import.meta.dirname, "..", "src", "search", "calibration-constants.ts");

interface Row {
  set: string;
  mode: string;
  relevant: string[];
  /** The query's documents in rank order, each with the raw score of its best chunk. */
  docs: { doc: string; score: number }[];
}
interface Example {
  set: string;
  /** Whether the list is a query's own or the same list with its relevant documents taken out. */
  answered: boolean;
  /** The features: the raw score and its distance below the list's best raw score (≤ 0). */
  x: [raw: number, belowBest: number];
  y: 0 | 1;
  /** Whether the result heads its list: what a query nothing answers would show first. */
  first: boolean;
}
/** Intercept, then one coefficient per feature. */
type Model = [a: number, b: number, c: number];

const predict = (m: Model, x: Example["x"]) => 1 / (1 + Math.exp(-(m[0] + m[1] * x[0] + m[2] * x[1])));

/** The top-10 of each query's list, and of the list that remains once its relevant documents are removed. */
function examples(rows: Row[], mode: string): Example[] {
  const out: Example[] = [];
  for (const row of rows.filter((r) => r.mode === mode)) {
    const relevant = new Set(row.relevant);
    const lists = [
      { answered: true, docs: row.docs.slice(0, 10) },
      { answered: false, docs: row.docs.filter((d) => !relevant.has(d.doc)).slice(0, 10) },
    ];
    for (const { answered, docs } of lists) {
      const best = docs[0]?.score ?? 0;
      docs.forEach(({ doc, score }, i) => {
        out.push({ set: row.set, answered, x: [score, score - best], y: relevant.has(doc) ? 1 : 0, first: i === 0 });
      });
    }
  }
  return out;
}

/** Weighted logistic regression with a small ridge on the coefficients, by Newton's method. */
function fitLogistic(data: Example[], weight: (e: Example) => number): Model {
  const m: Model = [0, 0, 0];
  for (let iteration = 0; iteration < 100; iteration++) {
    const g = m.map((v, i) => (i === 0 ? 0 : -RIDGE * v));
    const h = m.map((_, i) => m.map((_, j) => (i === j && i > 0 ? RIDGE : 0)));
    for (const e of data) {
      const f = [1, ...e.x];
      const p = predict(m, e.x);
      const w = weight(e);
      for (let i = 0; i < 3; i++) {
        g[i] = (g[i] as number) + w * (e.y - p) * (f[i] as number);
        const row = h[i] as number[];
        for (let j = 0; j < 3; j++) row[j] = (row[j] as number) + w * p * (1 - p) * (f[i] as number) * (f[j] as number);
      }
    }
    const step = solve(h, g);
    step.forEach((d, i) => {
      m[i] = (m[i] as number) + d;
    });
    if (step.reduce((sum, d) => sum + Math.abs(d), 0) < 1e-10) break;
  }
  return m;
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
      for (let k = col; k <= n; k++) row[k] = (row[k] as number) - factor * (top[k] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = a[r] as number[];
    let sum = row[n] as number;
    for (let k = r + 1; k < n; k++) sum -= (row[k] as number) * (x[k] as number);
    x[r] = sum / (row[r] as number);
  }
  return x;
}

function figures(m: Model, data: Example[]) {
  const sets = [...new Set(data.map((e) => e.set))];
  const kept = (ps: number[]) => ps.filter((p) => p >= 0.5).length / Math.max(ps.length, 1);
  return sets.map((set) => {
    const xs = data.filter((e) => e.set === set && e.answered);
    const rel = xs.filter((e) => e.y === 1).map((e) => predict(m, e.x));
    const non = xs.filter((e) => e.y === 0).map((e) => predict(m, e.x));
    const unanswered = data.filter((e) => e.set === set && !e.answered && e.first).map((e) => predict(m, e.x));
    return { set, relevantKept: kept(rel), nonRelevantKept: kept(non), auc: auc(rel, non), unansweredKept: kept(unanswered) };
  });
}

/** A dump's rows, read line by line (a full dump holds every chunk's text: over a gigabyte), results folded to documents. */
async function readDump(file: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!line) continue;
    const { set, mode, relevant, results } = JSON.parse(line) as Omit<Row, "docs"> & {
      results: { doc: string; score: number }[];
    };
    const docs = new Map<string, number>();
    for (const r of results) if (!docs.has(r.doc)) docs.set(r.doc, r.score);
    rows.push({ set, mode, relevant, docs: [...docs].map(([doc, score]) => ({ doc, score })) });
  }
  return rows;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/fit-calibration.ts RAW_DUMP.jsonl [...]");
  process.exit(1);
}
const rows = (await Promise.all(files.map(readDump))).flat();
const fitted = new Map<string, Model>();
for (const [key, mode] of Object.entries(MODES)) {
  const data = examples(rows, mode);
  // Each set, and within it the answered and the unanswered lists, weigh the same whatever their size.
  const count = new Map<string, number>();
  const group = (e: Example) => `${e.set}/${e.answered}`;
  for (const e of data) count.set(group(e), (count.get(group(e)) ?? 0) + 1);
  let chosen: { w: number; m: Model } = { w: 0, m: [0, 0, 0] };
  for (const w of WEIGHTS) {
    chosen = { w, m: fitLogistic(data, (e) => (e.y === 1 ? w : 1) / (count.get(group(e)) as number)) };
    if (figures(chosen.m, data).every((f) => f.relevantKept >= TARGET)) break;
  }
  const [a, b, c] = chosen.m;
  // b > 0: a list's best result scores higher the higher its raw score, so a query nothing
  // answers can get no result above 0.5; b + c > 0: within a query the map keeps the raw order.
  if (!(b > 0 && b + c > 0)) throw new Error(`${mode}: the fit is not increasing in the raw score (b ${b}, c ${c})`);
  fitted.set(key, chosen.m);
  console.log(
    `\n${mode}: relevant weight ${chosen.w.toFixed(2)}, p = σ(${a.toFixed(3)} + ${b.toFixed(3)}·raw + ${c.toFixed(3)}·(raw − best))`,
  );
  for (const f of figures(chosen.m, data)) {
    console.log(
      `  ${f.set.padEnd(12)} relevant ≥ 0.5: ${f.relevantKept.toFixed(3)}  non-relevant ≥ 0.5: ${f.nonRelevantKept.toFixed(3)}  AUC ${f.auc.toFixed(3)}  unanswered best ≥ 0.5: ${f.unansweredKept.toFixed(3)}`,
    );
  }
}

const model = (key: string) => {
  const [a, b, c] = fitted.get(key) as Model;
  return `{ input: "score", intercept: ${a.toFixed(4)}, slope: ${b.toFixed(4)}, belowBest: ${c.toFixed(4)} }`;
};
writeFileSync(
  OUT,
  `// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5;
// neither reads the distance to the query's best result.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: { keyword: ScoreModel; vector: ByBackend; hybrid: ByBackend; rerank: ByBackend } = {
  keyword: ${model("keyword")},
  vector: { local: ${model("vector")}, "workers-ai": { input: "score", intercept: -5, slope: 10, belowBest: 0 } },
  hybrid: { local: ${model("hybrid")}, "workers-ai": { input: "score", intercept: -5, slope: 10, belowBest: 0 } },
  rerank: { local: ${model("rerank")}, "workers-ai": { input: "logit", intercept: 0, slope: 1, belowBest: 0 } },
};
`,
);
console.log(`\nwrote ${OUT} (npm run format lays it out)`);
