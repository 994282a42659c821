import { describe, expect, it } from "vitest";
import { DEFAULT_SYNONYMS } from "../../src/search/default-synonyms.ts";
import type { SynonymSettings } from "../../src/search/synonym-store.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

interface Conflict {
  error: { code: string; message: string; details: { current: SynonymSettings } };
}

function putSynonyms(groups: string[][], ifMatch?: string, key = keys.boss) {
  return call("/api/synonyms", {
    method: "PUT",
    key,
    body: JSON.stringify({ groups }),
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });
}

function resetSynonyms(ifMatch?: string, key = keys.boss) {
  return call("/api/synonyms", { method: "DELETE", key, headers: ifMatch === undefined ? {} : { "If-Match": ifMatch } });
}

async function readSynonyms(key = keys.staff) {
  const res = await call("/api/synonyms", { key });
  expect(res.status).toBe(200);
  return { etag: res.headers.get("ETag"), body: await res.json<SynonymSettings>() };
}

async function keywordHits(question: string, kb: string) {
  const res = await call("/api/v1/knowledge-search", {
    method: "POST",
    key: keys.staff,
    body: JSON.stringify({ question, knowledge_base_ids: [kb], search_mode: "keyword", rerank: false, min_score: 0 }),
  });
  return (await res.json<{ results: { content: string }[] }>()).results;
}

describe("synonym list versions", () => {
  it("starts at version 0 with the default, and moves on by one with every PUT and DELETE, never reusing a version", async () => {
    const start = await readSynonyms(keys.otherBoss);
    expect(start).toEqual({ etag: '"0"', body: { groups: DEFAULT_SYNONYMS, is_default: true, version: 0, updated_at: null } });

    const first = await putSynonyms([["锁边", "拷边"]], '"0"', keys.otherBoss);
    expect(first.status).toBe(200);
    expect(first.headers.get("ETag")).toBe('"1"');
    expect(await first.json()).toMatchObject({ groups: [["锁边", "拷边"]], is_default: false, version: 1 });

    const reset = await resetSynonyms('"1"', keys.otherBoss);
    expect(reset.headers.get("ETag")).toBe('"2"');
    expect(await reset.json()).toMatchObject({ groups: DEFAULT_SYNONYMS, is_default: true, version: 2, updated_at: null });
    // A client that read version 1 before the reset is refused, even though the list is at its default again.
    expect((await putSynonyms([["锁边", "包边"]], '"1"', keys.otherBoss)).status).toBe(409);
    // Without If-Match a write is stored as before.
    expect(await (await putSynonyms([["锁边", "包边"]], undefined, keys.otherBoss)).json()).toMatchObject({ version: 3 });
    expect((await readSynonyms(keys.otherBoss)).etag).toBe('"3"');
  });

  it("answers a PUT or DELETE from a stale read with 409 and the current list, changing nothing", async () => {
    const { body: read } = await readSynonyms();
    const mine = await putSynonyms([["缝纫机", "衣车"]], `"${read.version}"`);
    expect(mine.status).toBe(200);
    const stored = await mine.json<SynonymSettings>();

    const theirs = await putSynonyms([["缝纫机", "平车"]], `"${read.version}"`);
    expect(theirs.status).toBe(409);
    const body = await theirs.json<Conflict>();
    expect(body.error.code).toBe("conflict");
    expect(body.error.message).toContain(`version ${stored.version}, your If-Match names "${read.version}"`);
    expect(body.error.details.current).toMatchObject({ groups: [["缝纫机", "衣车"]], version: stored.version });
    expect((await resetSynonyms(`"${read.version}"`)).status).toBe(409);
    expect((await readSynonyms()).body).toEqual(stored);

    expect((await putSynonyms([["缝纫机", "平车"]], 'W/"1", "99"')).status).toBe(409);
    expect((await putSynonyms([["缝纫机", "平车"]], "1")).status).toBe(400);
    expect((await putSynonyms([["缝纫机", "平车"]], "*")).status).toBe(200);
  });

  it("lets exactly one of two PUTs with the same If-Match win, and search uses the winner's groups", async () => {
    const res = await call("/api/knowledge-bases", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "同义词并发" }),
    });
    const kb = (await res.json<{ id: string }>()).id;
    const upload = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "m.md", content: "# 设备\n\n衣车每周上油一次。\n\n# 熨烫\n\n烫台每天清理。" }),
    });
    expect(upload.status).toBe(201);
    for (let round = 0; round < 3; round++) {
      const { body: read } = await readSynonyms();
      const A = [["缝纫机", "衣车"]];
      const B = [["缝纫机", "烫台"]];
      const [a, b] = await Promise.all([putSynonyms(A, `"${read.version}"`), putSynonyms(B, `"${read.version}"`)]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? A : B;
      const lost = await (a.status === 409 ? a : b).json<Conflict>();
      expect(lost.error.details.current).toMatchObject({ groups: winner, version: read.version + 1 });
      expect((await readSynonyms()).body).toMatchObject({ groups: winner, version: read.version + 1 });
      const [hit] = await keywordHits("缝纫机", kb);
      expect(hit?.content).toContain(winner === A ? "衣车" : "烫台");
    }
  });

  it("tells concurrent writers without If-Match the truth: each stored one moved the version by one, the last is kept", async () => {
    const { body: read } = await readSynonyms();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        putSynonyms([[`词${i}`, `同义${i}`]]).then(async (res) => ({
          i,
          status: res.status,
          body: await res.json<SynonymSettings>(),
        })),
      ),
    );
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const stored = answers.filter((a) => a.status === 200);
    expect(stored.length).toBeGreaterThan(0);
    const versions = stored.map((a) => a.body.version).sort((x, y) => x - y);
    expect(versions).toEqual(versions.map((_, k) => read.version + 1 + k));
    const now = (await readSynonyms()).body;
    expect(now.version).toBe(read.version + stored.length);
    const last = stored.find((a) => a.body.version === now.version);
    expect(now.groups).toEqual([[`词${last?.i}`, `同义${last?.i}`]]);
    const row = await dbOf("t-jinxiu").prepare("SELECT version FROM synonym_sets WHERE tenant_id = 't-jinxiu'").first<{
      version: number;
    }>();
    expect(row?.version).toBe(now.version);
  });
});
