import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import type { AppError } from "../../src/errors.ts";
import { type SearchBackends, searchBackends } from "../../src/search/backends.ts";
import { type FaqEntry, type FaqEntryInput, saveFaqEntry } from "../../src/search/faq.ts";
import { keywordTable } from "../../src/search/keyword-index.ts";
import { deleteKnowledgeBase } from "../../src/search/knowledge-bases.ts";
import { searchBindingsOf } from "../../src/services.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { storedVectorIds } from "../vector-rows.ts";

const TENANT = "t-jinxiu";

async function newFaqBase(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ name, type: "faq" }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

async function addEntry(kb: string, entry: FaqEntryInput): Promise<FaqEntry> {
  const res = await call(`/api/knowledge-bases/${kb}/faq`, { method: "POST", key: keys.boss, body: JSON.stringify(entry) });
  expect(res.status).toBe(201);
  return res.json<FaqEntry>();
}

function putEntry(kb: string, id: string, entry: FaqEntryInput, ifMatch?: string) {
  return call(`/api/knowledge-bases/${kb}/faq/${id}`, {
    method: "PUT",
    key: keys.boss,
    body: JSON.stringify(entry),
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });
}

function deleteEntry(kb: string, id: string, ifMatch?: string) {
  return call(`/api/knowledge-bases/${kb}/faq/${id}`, {
    method: "DELETE",
    key: keys.boss,
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });
}

async function search(kb: string, question: string) {
  const res = await call("/api/v1/knowledge-search", {
    method: "POST",
    key: keys.staff,
    body: JSON.stringify({ question, knowledge_base_ids: [kb], min_score: 0 }),
  });
  expect(res.status).toBe(200);
  return (await res.json<{ results: { content: string; knowledge_title: string }[] }>()).results;
}

/** Everything stored for an entry: its row, chunks, keyword rows and vectors. */
async function storedEntry(kb: string, id: string) {
  const entry = await (await call(`/api/knowledge-bases/${kb}/faq/${id}`, { key: keys.staff })).json<FaqEntry>();
  const { results: chunks } = await dbOf("t-jinxiu")
    .prepare("SELECT id, rowid, heading_path, content FROM chunks WHERE document_id = ? ORDER BY position")
    .bind(id)
    .all<{ id: string; rowid: number; heading_path: string; content: string }>();
  const keyword = await dbOf("t-jinxiu")
    .prepare(
      `SELECT COUNT(*) AS n FROM ${await keywordTable(TENANT)} WHERE rowid IN (SELECT rowid FROM chunks WHERE document_id = ?)`,
    )
    .bind(id)
    .first<{ n: number }>();
  const vectors = await storedVectorIds(TENANT, "document_id = ?", id);
  return { entry, chunks, keywordRows: keyword?.n, vectors };
}

/** The entry's stored index is exactly `entry`'s: one chunk per question, each with its answer, keyword rows and vector. */
async function expectIndexedAs(kb: string, id: string, entry: FaqEntryInput) {
  const state = await storedEntry(kb, id);
  expect(state.entry).toMatchObject(entry);
  expect(state.chunks.map((c) => c.heading_path)).toEqual([entry.question, ...entry.similar_questions]);
  for (const chunk of state.chunks) expect(chunk.content).toBe(entry.answer);
  expect(state.keywordRows).toBe(state.chunks.length);
  expect(state.vectors.sort()).toEqual(state.chunks.map((c) => c.id).sort());
  return state;
}

/** Search backends whose embedder waits until `parties` writers have all read, so their writes truly race. */
function racingBackends(parties: number): SearchBackends {
  const backends = searchBackends(searchBindingsOf(env), readConfig(env));
  let arrived = 0;
  let release: () => void = () => {};
  const allRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    ...backends,
    embedder: {
      ...backends.embedder,
      embed: async (texts: string[]) => {
        arrived += 1;
        if (arrived === parties) release();
        await allRead;
        return backends.embedder.embed(texts);
      },
    },
  };
}

const ORIGINAL = { question: "裁片丢了怎么办", similar_questions: ["裁片少了"], answer: "先查裁床记录，再找组长补裁。" };
const EDIT_A = { question: "裁片丢了怎么办", similar_questions: ["裁片少了", "甲方说法"], answer: "甲：先查裁床记录。" };
const EDIT_B = { question: "裁片丢了怎么办", similar_questions: ["乙方说法"], answer: "乙：直接找组长补裁。" };

describe("FAQ entry versions", () => {
  it("serves the version in the JSON and as ETag, one more with every stored change and none for an unchanged save", async () => {
    const kb = await newFaqBase("版本-1");
    const created = await call(`/api/knowledge-bases/${kb}/faq`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify(ORIGINAL),
    });
    expect(created.headers.get("ETag")).toBe('"1"');
    const entry = await created.json<FaqEntry>();
    expect(entry.version).toBe(1);
    const read = await call(`/api/knowledge-bases/${kb}/faq/${entry.id}`, { key: keys.staff });
    expect(read.headers.get("ETag")).toBe('"1"');

    const same = await putEntry(kb, entry.id, ORIGINAL, '"1"');
    expect(same.headers.get("ETag")).toBe('"1"');
    const changed = await putEntry(kb, entry.id, EDIT_A, '"1"');
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).toBe('"2"');
    expect(await changed.json()).toMatchObject({ ...EDIT_A, version: 2 });
    const list = await (await call(`/api/knowledge-bases/${kb}/faq`, { key: keys.staff })).json<{ entries: FaqEntry[] }>();
    expect(list.entries[0]?.version).toBe(2);
    // Without If-Match a save is stored as before.
    expect(await (await putEntry(kb, entry.id, EDIT_B)).json()).toMatchObject({ ...EDIT_B, version: 3 });
  });

  it("answers a save from a stale read with 409 and the current entry, storing nothing of it", async () => {
    const kb = await newFaqBase("版本-2");
    const entry = await addEntry(kb, ORIGINAL);
    // Two bosses opened the entry at version 1; the first saves.
    expect((await putEntry(kb, entry.id, EDIT_A, '"1"')).status).toBe(200);
    const second = await putEntry(kb, entry.id, EDIT_B, '"1"');
    expect(second.status).toBe(409);
    const body = await second.json<{ error: { code: string; message: string; details: { current: FaqEntry } } }>();
    expect(body.error.code).toBe("conflict");
    expect(body.error.message).toContain('version 2, your If-Match names "1"');
    expect(body.error.details.current).toMatchObject({ ...EDIT_A, id: entry.id, version: 2 });
    await expectIndexedAs(kb, entry.id, EDIT_A);
    expect((await search(kb, "乙方说法"))[0]?.content).not.toBe(EDIT_B.answer);

    // Sent again against the version it now knows, it is stored.
    expect((await putEntry(kb, entry.id, EDIT_B, '"2"')).status).toBe(200);
    await expectIndexedAs(kb, entry.id, EDIT_B);
  });

  it("reads If-Match as the RFC says: a list, '*', strong comparison, and a 400 for what is not an entity tag", async () => {
    const kb = await newFaqBase("版本-3");
    const entry = await addEntry(kb, ORIGINAL);
    expect((await putEntry(kb, entry.id, EDIT_A, '"7", "1"')).status).toBe(200);
    expect((await putEntry(kb, entry.id, EDIT_B, "*")).status).toBe(200);
    expect((await putEntry(kb, entry.id, ORIGINAL, 'W/"3"')).status).toBe(409);
    expect((await putEntry(kb, entry.id, ORIGINAL, '"abc"')).status).toBe(409);
    for (const bad of ["3", '"3', '"3" "4"', 'W/"3" x']) {
      const res = await putEntry(kb, entry.id, ORIGINAL, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await res.json<{ error: { message: string } }>()).error.message).toContain("If-Match");
    }
    await expectIndexedAs(kb, entry.id, EDIT_B);
    expect((await putEntry(kb, "no-such-entry", ORIGINAL, '"1"')).status).toBe(404);
  });

  it("answers a stale DELETE with 409 and keeps the entry searchable; a current one deletes it", async () => {
    const kb = await newFaqBase("版本-4");
    const entry = await addEntry(kb, ORIGINAL);
    await putEntry(kb, entry.id, EDIT_A);
    const stale = await deleteEntry(kb, entry.id, '"1"');
    expect(stale.status).toBe(409);
    expect((await stale.json<{ error: { details: { current: FaqEntry } } }>()).error.details.current.version).toBe(2);
    expect((await search(kb, "裁片丢了怎么办"))[0]?.content).toBe(EDIT_A.answer);
    await expectIndexedAs(kb, entry.id, EDIT_A);

    expect((await deleteEntry(kb, entry.id, '"2"')).status).toBe(200);
    expect(await search(kb, "裁片丢了怎么办")).toEqual([]);
    expect((await deleteEntry(kb, entry.id, '"2"')).status).toBe(404);
  });
});

describe("concurrent writers of one FAQ entry", () => {
  it("lets exactly one of two PUTs with the same If-Match win, and search serves the winner's answer only", async () => {
    for (let round = 0; round < 3; round++) {
      const kb = await newFaqBase(`并发问答-${round}`);
      const entry = await addEntry(kb, ORIGINAL);
      const [a, b] = await Promise.all([putEntry(kb, entry.id, EDIT_A, '"1"'), putEntry(kb, entry.id, EDIT_B, '"1"')]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const [winner, loser] = a.status === 200 ? [EDIT_A, EDIT_B] : [EDIT_B, EDIT_A];
      const lost = await (a.status === 409 ? a : b).json<{ error: { code: string; details: { current: FaqEntry } } }>();
      expect(lost.error).toMatchObject({ code: "conflict", details: { current: { ...winner, version: 2 } } });
      const state = await expectIndexedAs(kb, entry.id, winner);
      expect(state.entry.version).toBe(2);
      for (const question of [...winner.similar_questions, ...loser.similar_questions, ORIGINAL.question]) {
        for (const hit of await search(kb, question)) expect(hit.content).toBe(winner.answer);
      }
    }
  });

  it("stores one of two writers that both read the entry before either wrote, with or without If-Match", async () => {
    for (const ifVersion of [[1], undefined]) {
      const kb = await newFaqBase(`同时读-${ifVersion ? "带版本" : "不带"}`);
      const entry = await addEntry(kb, ORIGINAL);
      const backends = racingBackends(2);
      const save = (input: FaqEntryInput) =>
        saveFaqEntry({ db: dbOf("t-jinxiu"), backends, tenantId: TENANT, kbId: kb, input, targetId: entry.id, ifVersion }).then(
          (outcome) => ({ outcome, error: undefined }),
          (error: AppError) => ({ outcome: undefined, error }),
        );
      const [a, b] = await Promise.all([save(EDIT_A), save(EDIT_B)]);
      const stored = [a, b].filter((r) => r.outcome);
      const refused = [a, b].filter((r) => r.error);
      expect(stored).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]?.error).toMatchObject({ code: "conflict" });
      expect(refused[0]?.error?.message).toContain("while yours was being written");
      const winner = stored[0]?.outcome?.entry as FaqEntry;
      expect(winner.version).toBe(2);
      expect(refused[0]?.error?.details?.current).toMatchObject({ answer: winner.answer, version: 2 });
      await expectIndexedAs(kb, entry.id, a.outcome ? EDIT_A : EDIT_B);
    }
  });

  it("lets one of a DELETE and a PUT racing from one version happen, never half of both", async () => {
    for (let round = 0; round < 3; round++) {
      const kb = await newFaqBase(`删改并发-${round}`);
      const entry = await addEntry(kb, ORIGINAL);
      const [put, del] = await Promise.all([putEntry(kb, entry.id, EDIT_A, '"1"'), deleteEntry(kb, entry.id, '"1"')]);
      expect([put.status, del.status].sort()).toEqual(del.status === 200 ? [200, 404] : [200, 409]);
      if (del.status === 200) {
        const { n } = (await dbOf("t-jinxiu")
          .prepare("SELECT COUNT(*) AS n FROM chunks WHERE document_id = ?")
          .bind(entry.id)
          .first<{
            n: number;
          }>()) ?? { n: -1 };
        expect(n).toBe(0);
        expect(await search(kb, "裁片丢了怎么办")).toEqual([]);
      } else {
        await expectIndexedAs(kb, entry.id, EDIT_A);
      }
    }
  });

  it("leaves one whole entry when an import races an edit of it, and tells each writer the truth", async () => {
    const IMPORTED = { question: ORIGINAL.question, similar_questions: ["导入的说法"], answer: "导入：按裁床单补裁。" };
    for (let round = 0; round < 3; round++) {
      const kb = await newFaqBase(`导入并发-${round}`);
      const entry = await addEntry(kb, ORIGINAL);
      const [edit, imported] = await Promise.all([
        putEntry(kb, entry.id, EDIT_A),
        call(`/api/knowledge-bases/${kb}/faq/import`, {
          method: "POST",
          key: keys.boss,
          body: JSON.stringify({ entries: [IMPORTED, { question: "另一条", answer: "另一条的答案。" }] }),
        }),
      ]);
      expect(imported.status).toBe(200);
      const report = await imported.json<{
        results: { status: string; entry?: FaqEntry; error?: { code: string } }[];
        created: number;
      }>();
      // The other entry of the import is not held up by the race.
      expect(report.results[1]?.status).toBe("created");
      const importAnswer = report.results[0];
      const storedWrites = [
        ...(edit.status === 200 ? [{ input: EDIT_A, version: (await edit.json<FaqEntry>()).version }] : []),
        ...(importAnswer?.status === "replaced" ? [{ input: IMPORTED, version: importAnswer.entry?.version as number }] : []),
      ];
      if (edit.status !== 200) expect(edit.status).toBe(409);
      if (importAnswer?.status === "failed") expect(importAnswer.error?.code).toBe("conflict");
      expect(storedWrites.length).toBeGreaterThan(0);
      // Each stored write moved the version by one; the entry holds the last of them, whole.
      const versions = storedWrites.map((w) => w.version).sort();
      expect(versions).toEqual(versions.map((_, i) => 2 + i));
      const last = storedWrites.find((w) => w.version === 1 + storedWrites.length);
      const state = await expectIndexedAs(kb, entry.id, last?.input as FaqEntryInput);
      expect(state.entry.version).toBe(1 + storedWrites.length);
    }
  });

  it("refuses an import's entry whose edit landed while the import was writing, keeping the edit whole", async () => {
    const kb = await newFaqBase("导入并发-强制");
    const entry = await addEntry(kb, ORIGINAL);
    const backends = racingBackends(2);
    const base = { db: dbOf("t-jinxiu"), backends, tenantId: TENANT, kbId: kb };
    const IMPORTED = { question: ORIGINAL.question, similar_questions: ["导入的说法"], answer: "导入：按裁床单补裁。" };
    const [edit, imported] = await Promise.allSettled([
      saveFaqEntry({ ...base, input: EDIT_A, targetId: entry.id, ifVersion: [1] }),
      saveFaqEntry({ ...base, input: IMPORTED, upsert: true }),
    ]);
    const outcomes = [edit, imported];
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected");
    expect(refused?.status === "rejected" && refused.reason).toMatchObject({ code: "conflict" });
    await expectIndexedAs(kb, entry.id, edit.status === "fulfilled" ? EDIT_A : IMPORTED);
  });

  it("answers 404, not a 500, and leaves no vectors when the FAQ base is deleted while an entry is saved", async () => {
    const kb = await newFaqBase("删除中的问答库");
    const backends = searchBackends(searchBindingsOf(env), readConfig(env));
    const deletingMidway = {
      ...backends,
      embedder: {
        ...backends.embedder,
        embed: async (texts: string[]) => {
          await deleteKnowledgeBase({ db: dbOf("t-jinxiu"), backends, tenantId: TENANT, id: kb });
          return backends.embedder.embed(texts);
        },
      },
    };
    await expect(
      saveFaqEntry({ db: dbOf("t-jinxiu"), backends: deletingMidway, tenantId: TENANT, kbId: kb, input: ORIGINAL }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await storedVectorIds(TENANT, "kb_id = ?", kb)).length).toBe(0);
  });
});
