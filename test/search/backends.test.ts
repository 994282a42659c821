import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../src/search/local-embedder.ts";
import { answerNearQuery, LocalReranker, phraseMatch } from "../../src/search/local-reranker.ts";
import { bucketOf, LocalVectorIndexClient } from "../../src/search/local-vector-index.ts";
import { askingMask } from "../../src/search/segment.ts";
import { VectorizeVectorIndex } from "../../src/search/vectorize-index.ts";
import { WorkersAiEmbedder } from "../../src/search/workers-ai-embedder.ts";
import { WorkersAiReranker } from "../../src/search/workers-ai-reranker.ts";

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

describe("the local embedder", () => {
  it("is deterministic, unit length, and closer for texts that share wording", async () => {
    const embedder = new LocalEmbedder();
    const [a, b, c, again] = await embedder.embed([
      "计件工资怎么计算",
      "计件工资按工序单价计算",
      "Export the payroll as CSV",
      "计件工资怎么计算",
    ]);
    expect(a).toHaveLength(embedder.dimensions);
    expect(again).toEqual(a);
    expect(cosine(a as number[], a as number[])).toBeCloseTo(1, 6);
    expect(cosine(a as number[], b as number[])).toBeGreaterThan(cosine(a as number[], c as number[]));
  });
});

describe("the local vector index (Durable Object)", () => {
  const index = () => new LocalVectorIndexClient(env.LOCAL_VECTOR_INDEX);
  const unit = (...xs: number[]) => xs;

  it("finds the nearest vectors by exact cosine, within the asked knowledge bases", async () => {
    const idx = index();
    await idx.upsert("t-a", [
      { id: "x", kbId: "kb1", documentId: "d", values: unit(1, 0, 0) },
      { id: "y", kbId: "kb1", documentId: "d", values: unit(0.8, 0.6, 0) },
      { id: "z", kbId: "kb2", documentId: "d", values: unit(1, 0, 0) },
    ]);
    const hits = await idx.query("t-a", [1, 0, 0], { topK: 5, kbIds: ["kb1"] });
    expect(hits.map((h) => h.id)).toEqual(["x", "y"]);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    expect(hits[1]?.score).toBeCloseTo(0.8, 6);
  });

  it("scores each vector with the very number a row-by-row dot product gives, however many dimensions the query uses", async () => {
    // A deterministic pseudo-random spread; the query uses 11 of 16 dimensions, so the passes of
    // four dimensions and the ones left over are both exercised.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    };
    const items = Array.from({ length: 40 }, (_, i) => ({
      id: `v${i}`,
      kbId: "kb",
      documentId: "d",
      values: Array.from({ length: 16 }, next),
    }));
    const query = Array.from({ length: 16 }, (_, d) => ([1, 4, 6, 9, 13].includes(d) ? 0 : next()));
    const idx = index();
    await idx.upsert("t-exact", items);
    const hits = await idx.query("t-exact", query, { topK: 40, kbIds: ["kb"] });
    // What the index holds and compares: unit vectors, stored as 32-bit floats.
    const unitOf = (v: number[]) => {
      const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      return v.map((x) => x / norm);
    };
    const q = unitOf(query);
    const expected = items
      .map(({ id, values }) => {
        const stored = Float32Array.from(unitOf(values));
        let dot = 0;
        for (let d = 0; d < 16; d++) if (q[d] !== 0) dot += (stored[d] as number) * (q[d] as number);
        return { id, dot };
      })
      .sort((a, b) => b.dot - a.dot)
      .map(({ id, dot }) => ({ id, score: Math.max(0, Math.min(1, dot)) }));
    expect(hits).toEqual(expected);
  });

  it("keeps tenants apart: one tenant's query never sees another's vectors", async () => {
    const idx = index();
    await idx.upsert("t-b", [{ id: "secret", kbId: "kb1", documentId: "d", values: unit(0, 1, 0) }]);
    expect(await idx.query("t-c", [0, 1, 0], { topK: 5, kbIds: ["kb1"] })).toEqual([]);
  });

  it("keeps two tenants of one bucket apart, the same vector id in each", async () => {
    const sameBucket = Array.from({ length: 64 }, (_, i) => `t-bucket-${i}`).filter(
      (t) => bucketOf(t) === bucketOf("t-bucket-0"),
    );
    const [first, second] = sameBucket as [string, string];
    const idx = index();
    await idx.upsert(first, [{ id: "v", kbId: "kb", documentId: "d", values: unit(1, 0, 0) }]);
    await idx.upsert(second, [{ id: "v", kbId: "kb", documentId: "d", values: unit(0, 1, 0) }]);
    expect((await idx.query(first, [1, 0, 0], { topK: 5, kbIds: ["kb"] }))[0]?.score).toBeCloseTo(1, 6);
    expect((await idx.query(second, [1, 0, 0], { topK: 5, kbIds: ["kb"] }))[0]?.score).toBeCloseTo(0, 6);
    await idx.delete(first, ["v"]);
    expect([await idx.count(first), await idx.count(second)]).toEqual([0, 1]);
  });

  it("takes over the vectors a tenant's own object kept before buckets, once, page by page, and never brings back one removed meanwhile", async () => {
    const tenant = "t-before-buckets";
    const own = env.LOCAL_VECTOR_INDEX.get(env.LOCAL_VECTOR_INDEX.idFromName(tenant));
    // As an older local state holds them: a table of the tenant's rows in an object named by it,
    // more than one answer's worth (500 rows a page).
    await runInDurableObject(own, async (_instance, state) => {
      state.storage.sql.exec(
        "CREATE TABLE vectors (id TEXT PRIMARY KEY, kb_id TEXT NOT NULL, document_id TEXT NOT NULL, dims INTEGER NOT NULL, vector BLOB NOT NULL)",
      );
      const insert = (id: string, values: number[]) =>
        state.storage.sql.exec(
          "INSERT INTO vectors (id, kb_id, document_id, dims, vector) VALUES (?, 'kb', 'd', 3, ?)",
          id,
          new Float32Array(values).buffer,
        );
      insert("old-1", [1, 0, 0]);
      insert("old-2", [0.6, 0.8, 0]);
      for (let i = 0; i < 1200; i++) insert(`far-${i}`, [0, 0, 1]);
    });
    const idx = index();
    // The first search and a removal at once: both wait for the takeover, so old-2 stays removed.
    const [hits] = await Promise.all([idx.query(tenant, [1, 0, 0], { topK: 2, kbIds: ["kb"] }), idx.delete(tenant, ["old-2"])]);
    expect(hits[0]?.id).toBe("old-1");
    expect((await idx.query(tenant, [1, 0, 0], { topK: 2, kbIds: ["kb"] })).map((h) => h.id)).not.toContain("old-2");
    expect(await idx.count(tenant)).toBe(1201);
    // The old object forgets them once the bucket holds them.
    const left = await runInDurableObject(own, async (_instance, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'vectors'").toArray(),
    );
    expect(left).toEqual([]);
  });

  it("asks a tenant without older vectors nothing more after its first use, leaving its own object without tables", async () => {
    const tenant = "t-never-before";
    const idx = index();
    await idx.upsert(tenant, [{ id: "v", kbId: "kb", documentId: "d", values: unit(1, 0, 0) }]);
    expect(await idx.count(tenant)).toBe(1);
    const own = env.LOCAL_VECTOR_INDEX.get(env.LOCAL_VECTOR_INDEX.idFromName(tenant));
    const tables = await runInDurableObject(own, async (_instance, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf%'").toArray(),
    );
    expect(tables).toEqual([]);
  });

  it("replaces on upsert and forgets deleted ids", async () => {
    const idx = index();
    await idx.upsert("t-d", [{ id: "v", kbId: "kb", documentId: "d", values: unit(1, 0, 0) }]);
    await idx.upsert("t-d", [{ id: "v", kbId: "kb", documentId: "d", values: unit(0, 0, 1) }]);
    expect((await idx.query("t-d", [0, 0, 1], { topK: 1, kbIds: ["kb"] }))[0]?.score).toBeCloseTo(1, 6);
    await idx.delete("t-d", ["v"]);
    expect(await idx.query("t-d", [0, 0, 1], { topK: 1, kbIds: ["kb"] })).toEqual([]);
  });
});

/** A fake of the Vectorize binding's documented shape and limits. */
function fakeVectorize() {
  const calls: { op: string; arg: unknown; options?: unknown }[] = [];
  const stored = new Map<string, VectorizeVector>();
  const binding = {
    async upsert(vectors: VectorizeVector[]) {
      if (vectors.length > 1000) throw new Error("VECTOR_UPSERT_ERROR: batch larger than 1000");
      calls.push({ op: "upsert", arg: vectors.length });
      for (const v of vectors) stored.set(v.id, v);
      return { mutationId: "m" };
    },
    async deleteByIds(ids: string[]) {
      if (ids.length > 1000) throw new Error("too many ids");
      calls.push({ op: "deleteByIds", arg: ids.length });
      for (const id of ids) stored.delete(id);
      return { mutationId: "m" };
    },
    async query(vector: number[], options: VectorizeQueryOptions) {
      if ((options.topK ?? 5) > 100) throw new Error("topK too large");
      calls.push({ op: "query", arg: vector.length, options });
      const kbs = (options.filter?.kb_id as { $in: string[] } | undefined)?.$in ?? [];
      const matches = [...stored.values()]
        .filter((v) => v.namespace === options.namespace && kbs.includes(v.metadata?.kb_id as string))
        .map((v) => ({ id: v.id, score: cosine(vector, v.values as number[]) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, options.topK);
      return { matches, count: matches.length };
    },
  };
  return { binding: binding as unknown as VectorizeIndex, calls, stored };
}

describe("the Vectorize adapter", () => {
  it("batches upserts at 1000, namespaces by tenant and stores the knowledge base as metadata", async () => {
    const fake = fakeVectorize();
    const index = new VectorizeVectorIndex(fake.binding);
    const items = Array.from({ length: 2500 }, (_, i) => ({ id: `c${i}`, kbId: "kb1", documentId: "d1", values: [1, 0] }));
    await index.upsert("tenant-1", items);
    expect(fake.calls.map((c) => c.arg)).toEqual([1000, 1000, 500]);
    expect(fake.stored.get("c0")).toMatchObject({ namespace: "tenant-1", metadata: { kb_id: "kb1", document_id: "d1" } });
  });

  it("queries within the tenant's namespace, filtered to the knowledge bases, with topK capped at 100", async () => {
    const fake = fakeVectorize();
    const index = new VectorizeVectorIndex(fake.binding);
    await index.upsert("tenant-1", [
      { id: "a", kbId: "kb1", documentId: "d", values: [1, 0] },
      { id: "b", kbId: "kb2", documentId: "d", values: [1, 0] },
    ]);
    await index.upsert("tenant-2", [{ id: "c", kbId: "kb1", documentId: "d", values: [1, 0] }]);
    const hits = await index.query("tenant-1", [1, 0], { topK: 500, kbIds: ["kb1"] });
    expect(hits).toEqual([{ id: "a", score: 1 }]);
    expect(fake.calls.at(-1)?.options).toMatchObject({
      topK: 100,
      namespace: "tenant-1",
      returnValues: false,
      returnMetadata: "none",
    });
  });

  it("deletes in batches of at most 1000 ids", async () => {
    const fake = fakeVectorize();
    await new VectorizeVectorIndex(fake.binding).delete(
      "t",
      Array.from({ length: 1001 }, (_, i) => `id${i}`),
    );
    expect(fake.calls.map((c) => c.arg)).toEqual([1000, 1]);
  });
});

/** A fake Workers AI binding answering bge-m3 and bge-reranker-base in their documented shapes. */
function fakeAi(overrides: { rerankScores?: number[]; shortEmbeddings?: boolean } = {}) {
  const calls: { model: string; input: Record<string, unknown> }[] = [];
  const ai = {
    async run(model: string, input: Record<string, unknown>) {
      calls.push({ model, input });
      if (model === "@cf/baai/bge-m3") {
        const texts = input.text as string[];
        const data = texts.map((t) => Array.from({ length: 1024 }, (_, i) => (i === t.length % 1024 ? 1 : 0)));
        return { shape: [texts.length, 1024], data: overrides.shortEmbeddings ? data.slice(1) : data, pooling: "cls" };
      }
      if (model === "@cf/baai/bge-reranker-base") {
        const contexts = input.contexts as { text: string }[];
        return { response: contexts.map((_, id) => ({ id, score: overrides.rerankScores?.[id] ?? 0.5 })).reverse() };
      }
      throw new Error(`unexpected model ${model}`);
    },
  };
  return { ai: ai as unknown as Ai, calls };
}

describe("the Workers AI adapters", () => {
  it("embed with bge-m3 in batches, returning 1024-dimensional vectors in input order", async () => {
    const fake = fakeAi();
    const texts = Array.from({ length: 120 }, (_, i) => "x".repeat(i));
    const vectors = await new WorkersAiEmbedder(fake.ai).embed(texts);
    expect(vectors).toHaveLength(120);
    expect(vectors[7]?.[7]).toBe(1);
    expect(fake.calls.map((c) => (c.input.text as string[]).length)).toEqual([50, 50, 20]);
  });

  it("report an upstream failure when the model returns too few vectors", async () => {
    await expect(new WorkersAiEmbedder(fakeAi({ shortEmbeddings: true }).ai).embed(["a", "b"])).rejects.toMatchObject({
      status: 502,
    });
  });

  it("rerank with bge-reranker-base, mapping scores back by context id, every logit squashed the same way", async () => {
    const fake = fakeAi({ rerankScores: [0.9, 2.5, -3] });
    const scores = await new WorkersAiReranker(fake.ai).rerank("q", [
      { text: "a", score: 0 },
      { text: "b", score: 0 },
      { text: "c", score: 0 },
    ]);
    expect(scores[0]).toBeCloseTo(1 / (1 + Math.exp(-0.9)), 6);
    // Monotone: a higher logit never gets a lower score.
    expect(scores[1]).toBeGreaterThan(scores[0] as number);
    expect(scores[1]).toBeCloseTo(1 / (1 + Math.exp(-2.5)), 6);
    expect(scores[2]).toBeCloseTo(1 / (1 + Math.exp(3)), 6);
    expect(fake.calls[0]?.input).toMatchObject({ query: "q", contexts: [{ text: "a" }, { text: "b" }, { text: "c" }] });
  });
});

describe("the local reranker", () => {
  it("scores verbatim phrases above the same characters scattered", () => {
    expect(phraseMatch("2021年电影总票房", "2021年电影总票房为472亿元")).toBe(1);
    expect(phraseMatch("2021年电影总票房", "电影2021票房总年")).toBeLessThan(0.5);
    expect(phraseMatch("2021年电影总票房", "天气不错")).toBe(0);
  });

  it("does not count the words that ask at a phrase's ends, so quoting the question is no better than answering it", () => {
    const quoting = "可以直接提问，例如“怎么新建订单”";
    const answering = "在订单页面点击“新建订单”，填写客户名称";
    expect(phraseMatch("怎么新建订单", quoting)).toBe(phraseMatch("怎么新建订单", answering));
    expect(phraseMatch("怎么新建订单", answering)).toBeCloseTo((4 / 6) ** 1.5);
    // A heading phrased as the question holds them inside: one phrase, against 工资 alone.
    expect(phraseMatch("工资怎么算", "计件工资怎么算")).toBe(1);
    expect(phraseMatch("工资怎么算", "工资周期")).toBeCloseTo((2 / 5) ** 1.5);
    expect([...askingMask("2021年就业了多少人")]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0]);
  });

  it("keeps scores in [0, 1]: half first-stage score, half phrase match, with the answer-shape bonus", async () => {
    const scores = await new LocalReranker().rerank("工序单价", [
      { text: "工序单价由老板设置", score: 0.4 },
      { text: "无关内容", score: 1 },
      { text: "工序单价", score: 1 },
    ]);
    expect(scores[0]).toBeCloseTo((0.7 + 0.05) / 1.05, 6);
    expect(scores[1]).toBeCloseTo((0.5 + 0.05) / 1.05, 6);
    expect(scores[2]).toBeCloseTo(1, 6);
  });

  it("prefers the passage with the query's year, and a date when the question asks when", async () => {
    const [other, same] = await new LocalReranker().rerank("2022年特斯拉交付量", [
      { text: "2021年特斯拉交付量为93万辆", score: 0.6 },
      { text: "2022年特斯拉交付量为131万辆", score: 0.6 },
    ]);
    expect(same).toBeGreaterThan(other as number);
    const [undated, dated] = await new LocalReranker().rerank("2022春运开始时间", [
      { text: "2022春运开始时间还没有公布", score: 0.6 },
      { text: "2022春运开始时间为1月17日", score: 0.6 },
    ]);
    expect(dated).toBeGreaterThan(undated as number);
  });

  it("prefers the passage whose date sits in the sentence with the question's words", async () => {
    // Both name the event and hold a date; only one dates the event itself.
    const answers = "2023年6月，经中美双方商定，布林肯将于6月18日访华。";
    const mentions = "布林肯访华一事备受关注，但行程未定。另据报道，气球事件发生在2月4日。";
    expect(answerNearQuery("布林肯访华时间", answers)).toBeGreaterThan(answerNearQuery("布林肯访华时间", mentions));
    const [mentioned, answered] = await new LocalReranker().rerank("布林肯访华时间", [
      { text: mentions, score: 0.6 },
      { text: answers, score: 0.6 },
    ]);
    expect(answered).toBeGreaterThan(mentioned as number);
  });

  it("prefers the passage holding the query's entity and a number to one holding the entity alone", async () => {
    const [entityOnly, entityAndNumber] = await new LocalReranker().rerank("大兴机场旅客吞吐量是多少", [
      { text: "大兴机场旅客吞吐量增长较快，航线不断增加。", score: 0.6 },
      { text: "大兴机场旅客吞吐量达到2505万人次，航线不断增加。", score: 0.6 },
    ]);
    expect(entityAndNumber).toBeGreaterThan(entityOnly as number);
  });

  it("leaves questions that ask for neither a date nor an amount to the other signals", () => {
    expect(answerNearQuery("跳针怎么办", "换一根针。")).toBe(1);
    expect(answerNearQuery("工序单价", "无关内容")).toBe(1);
  });
});
