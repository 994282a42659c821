import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import { searchBackends } from "../../src/search/backends.ts";
import { CHUNKS_BY_IDS_SQL, chunksByIds } from "../../src/search/chunk-record.ts";
import { searchKnowledge } from "../../src/search/search.ts";
import { searchBindingsOf } from "../../src/services.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { countingDb } from "./counting-db.ts";
import { newKnowledgeBase, uploadDocument } from "./sections.ts";

const TENANT = "t-jinxiu";

async function search(db: D1Database, query: string) {
  const request = { query, mode: "hybrid" as const, topK: 5, minScore: 0, rerank: true };
  return (
    await searchKnowledge({ db, backends: searchBackends(searchBindingsOf(env), readConfig(env)), tenantId: TENANT, request })
  ).results;
}

/** The ids the vector matches' statement asked for by id alone: the chunks the isolate kept. */
function keptIdsAskedFor(counting: ReturnType<typeof countingDb>): string[] {
  const i = counting.sent.indexOf(CHUNKS_BY_IDS_SQL);
  return JSON.parse((counting.bound[i] as unknown[])[3] as string) as string[];
}

describe("the chunks an isolate keeps", () => {
  it("reads only the ids of chunks it has read before, and answers as it did", async () => {
    const kb = await newKnowledgeBase("记住段落");
    await uploadDocument(kb, "press.md", "# 熨烫\n\n熨斗温度按面料调整，真丝用低温，棉布用高温。", [200, 201]);
    const first = await search(dbOf("t-jinxiu"), "熨斗温度");
    const counting = countingDb();
    const again = await search(counting.db, "熨斗温度");
    expect(counting.trips()).toBe(1);
    expect(keptIdsAskedFor(counting)).toEqual(expect.arrayContaining(first.map((r) => r.id)));
    expect(again).toEqual(first);
    expect(again[0]?.content).toContain("熨斗温度");
  });

  it("shows a document written again with its new text and title, never a kept copy of the old", async () => {
    const kb = await newKnowledgeBase("改写段落");
    await uploadDocument(kb, "cut.md", "# 裁剪旧规\n\n裁床每层布料铺十层。", [200, 201]);
    expect((await search(dbOf("t-jinxiu"), "裁床铺布"))[0]).toMatchObject({ knowledge_title: "裁剪旧规" });
    await uploadDocument(kb, "cut.md", "# 裁剪新规\n\n裁床每层布料铺二十层，铺前先松布。", [200, 201]);
    const [top] = await search(dbOf("t-jinxiu"), "裁床铺布");
    expect(top).toMatchObject({ knowledge_title: "裁剪新规" });
    expect(top?.content).toContain("二十层");
  });

  it("keeps no chunk of more than 2,000 characters: an FAQ question's chunk holding a long answer is read in full each time", async () => {
    const res = await call("/api/knowledge-bases", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "长答案", type: "faq" }),
    });
    const faq = (await res.json<{ id: string }>()).id;
    const answer = `锁边机的线迹密度按面料调整。${"薄料用细线，厚料用粗线。".repeat(200)}`;
    expect(answer.length).toBeGreaterThan(2_000);
    const added = await call(`/api/knowledge-bases/${faq}/faq`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ question: "锁边机线迹怎么调", answer }),
    });
    expect(added.status).toBe(201);
    const first = await search(dbOf("t-jinxiu"), "锁边机线迹怎么调");
    expect(first[0]?.content).toBe(answer);
    const counting = countingDb();
    const again = await search(counting.db, "锁边机线迹怎么调");
    expect(again).toEqual(first);
    expect(keptIdsAskedFor(counting)).not.toContain(first[0]?.id);
  });

  it("never gives a kept chunk to a search outside its workshop or knowledge bases", async () => {
    const kb = await newKnowledgeBase("别家看不到");
    await uploadDocument(kb, "seam.md", "# 缝纫\n\n平车针距每寸十二针。", [200, 201]);
    const mine = await search(dbOf("t-jinxiu"), "平车针距");
    const ids = mine.map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    // Every one of them is kept now; another workshop, or another knowledge base, asking for them by id gets none.
    for (const [tenantId, kbIds] of [
      ["t-other", null],
      [TENANT, ["kb-elsewhere"]],
    ] as const) {
      const { statement, read } = chunksByIds({ db: dbOf("t-jinxiu"), tenantId, kbIds: kbIds && [...kbIds], ids });
      expect(read(await statement.all())).toEqual([]);
    }
  });
});
