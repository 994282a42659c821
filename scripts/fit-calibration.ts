// Fits the score calibration (src/search/calibration.ts) from raw eval results and writes
// src/search/calibration-constants.ts. Developers only: it needs the dev sets in ../shared/eval.
//
//   npm run eval -- --raw --dump /tmp/raw.jsonl      (raw scores of every mode, every set)
//   node scripts/fit-calibration.ts /tmp/raw.jsonl   (fit, print the figures, write the constants)
//
// One logistic regression per mode, p = σ(a + b·raw), over each query's top-10 documents (what a
// client sees), each set weighing the same whatever its size. Relevant results are weighted by w,
// the smallest w on a grid for which at least TARGET of the relevant results score 0.5 or more on
// every set: WeKnora's min_score 0.5 must keep what answers, and that fixes the cost ratio of the
// two errors rather than a hand-picked threshold.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { auc } from "./eval/calibration-figures.ts";

const TARGET = 0.9;
const WEIGHTS = [1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32];
const RIDGE = 1e-4;
const MODES = { keyword: "keyword", vector: "vector", hybrid: "hybrid", rerank: "hybrid + rerank" } as const;
const OUT = join(import.meta.dirname, "..", "src", "search", "calibration-constants.ts");

interface Row {
  set: string;
  mode: string;
  relevant: string[];
  results: { doc: string; score: number }[];
}
interface Example {
  set: string;
  x: number;
  y: 0 | 1;
}
type Model = { a: number; b: number };

const predict = (m: Model, x: number) => 1 / (1 + Math.exp(-(m.a + m.b * x)));

function examples(rows: Row[], mode: string): Example[] {
  const out: Example[] = [];
  for (const row of rows.filter((r) => r.mode === mode)) {
    const best = new Map<string, number>();
    for (const r of row.results) if (!best.has(r.doc)) best.set(r.doc, r.score);
    const relevant = new Set(row.relevant);
    for (const [doc, x] of [...best].slice(0, 10)) out.push({ set: row.set, x, y: relevant.has(doc) ? 1 : 0 });
  }
  return out;
}

/** Weighted logistic regression with a small ridge on the slope, by Newton's method. */
function fitLogistic(data: Example[], weight: (e: Example) => number): Model {
  const m = { a: 0, b: 0 };
  for (let iteration = 0; iteration < 100; iteration++) {
    let ga = 0;
    let gb = -RIDGE * m.b;
    let haa = 0;
    let hab = 0;
    let hbb = RIDGE;
    for (const e of data) {
      const p = predict(m, e.x);
      const w = weight(e);
      const v = w * p * (1 - p);
      ga += w * (e.y - p);
      gb += w * (e.y - p) * e.x;
      haa += v;
      hab += v * e.x;
      hbb += v * e.x * e.x;
    }
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    m.a += da;
    m.b += db;
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  return m;
}

function figures(m: Model, data: Example[]) {
  const sets = [...new Set(data.map((e) => e.set))];
  return sets.map((set) => {
    const xs = data.filter((e) => e.set === set);
    const rel = xs.filter((e) => e.y === 1).map((e) => predict(m, e.x));
    const non = xs.filter((e) => e.y === 0).map((e) => predict(m, e.x));
    const kept = (ps: number[]) => ps.filter((p) => p >= 0.5).length / Math.max(ps.length, 1);
    return { set, relevantKept: kept(rel), nonRelevantKept: kept(non), auc: auc(rel, non) };
  });
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/fit-calibration.ts RAW_DUMP.jsonl [...]");
  process.exit(1);
}
const rows: Row[] = files.flatMap((f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row),
);
const fitted = new Map<string, Model>();
for (const [key, mode] of Object.entries(MODES)) {
  const data = examples(rows, mode);
  const perSet = new Map<string, number>();
  for (const e of data) perSet.set(e.set, (perSet.get(e.set) ?? 0) + 1);
  let chosen = { w: 0, m: { a: 0, b: 0 } };
  for (const w of WEIGHTS) {
    chosen = { w, m: fitLogistic(data, (e) => (e.y === 1 ? w : 1) / (perSet.get(e.set) as number)) };
    if (figures(chosen.m, data).every((f) => f.relevantKept >= TARGET)) break;
  }
  if (!(chosen.m.b > 0)) throw new Error(`${mode}: the fitted slope is not positive; the raw score does not predict relevance`);
  fitted.set(key, chosen.m);
  console.log(`\n${mode}: relevant weight ${chosen.w}, p = σ(${chosen.m.a.toFixed(3)} + ${chosen.m.b.toFixed(3)}·raw)`);
  for (const f of figures(chosen.m, data)) {
    console.log(
      `  ${f.set.padEnd(12)} relevant ≥ 0.5: ${f.relevantKept.toFixed(3)}  non-relevant ≥ 0.5: ${f.nonRelevantKept.toFixed(3)}  AUC ${f.auc.toFixed(3)}`,
    );
  }
}

const model = (key: string) => {
  const m = fitted.get(key) as Model;
  return `{ input: "score", intercept: ${m.a.toFixed(4)}, slope: ${m.b.toFixed(4)} }`;
};
writeFileSync(
  OUT,
  `// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: { keyword: ScoreModel; vector: ByBackend; hybrid: ByBackend; rerank: ByBackend } = {
  keyword: ${model("keyword")},
  vector: { local: ${model("vector")}, "workers-ai": { input: "score", intercept: -5, slope: 10 } },
  hybrid: { local: ${model("hybrid")}, "workers-ai": { input: "score", intercept: -5, slope: 10 } },
  rerank: { local: ${model("rerank")}, "workers-ai": { input: "logit", intercept: 0, slope: 1 } },
};
`,
);
console.log(`\nwrote ${OUT} (npm run format lays it out)`);
