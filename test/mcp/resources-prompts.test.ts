import { describe, expect, it } from "vitest";
import { RESOURCES_PAGE_SIZE } from "../../src/mcp/resources.ts";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { type CallResult, ERAS, modernMcpClient, modernRequest } from "./clients.ts";

const TEMPLATE = "weft://knowledge-bases/{knowledge_base}/documents/{document}";

// Two sections, the second long enough to be cut into overlapping chunks.
const SEWING = [
  "# 缝纫工艺",
  "",
  "## 上领子",
  "",
  "上领子前先检查领面和领里是否对齐。领角要左右对称。",
  "",
  "## 锁边",
  "",
  ...Array.from({ length: 40 }, (_, i) => `第${i + 1}步：锁边线迹要均匀，针距保持每厘米四针，不能跳针。`),
].join("\n");

/** A new knowledge base, its name made unique (each era's run makes its own). */
async function knowledgeBase(key: string, name: string): Promise<string> {
  const unique = `${name}-${crypto.randomUUID().slice(0, 8)}`;
  const res = await call("/api/knowledge-bases", { method: "POST", key, body: JSON.stringify({ name: unique }) });
  return (await res.json<{ id: string }>()).id;
}

async function upload(key: string, kb: string, filename: string, content: string): Promise<string> {
  const res = await call(`/api/knowledge-bases/${kb}/documents`, {
    method: "POST",
    key,
    body: JSON.stringify({ filename, content }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json<{ document: { id: string } }>()).document.id;
}

describe.each(ERAS)("workshop documents as resources for a $era", ({ connect }) => {
  it("lists a document with its title, type, size and knowledge base, reads it as Markdown, and links it from search", async () => {
    const kb = await knowledgeBase(keys.boss, "工艺资源");
    const doc = await upload(keys.boss, kb, "sewing.md", SEWING);
    const client = await connect(keys.staff);
    const uri = `weft://knowledge-bases/${kb}/documents/${doc}`;
    const resources = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor);
    const listed = resources.find((r) => r.uri === uri);
    expect(listed).toMatchObject({ name: "sewing.md", mimeType: "text/markdown", size: new TextEncoder().encode(SEWING).length });
    expect(listed?._meta?.["weft/knowledge_base"]).toMatchObject({ id: kb, name: expect.stringMatching(/^工艺资源-/) });

    const read = await client.readResource({ uri });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain("## 上领子");
    expect(text).toContain("## 锁边");
    expect(text).toContain("上领子前先检查领面和领里是否对齐。");
    // Every sentence once: the chunks' overlap is not repeated.
    for (let step = 1; step <= 40; step++) expect(text.split(`第${step}步：`).length - 1, `step ${step}`).toBe(1);

    const found = (await client.callTool({
      name: "knowledge_search",
      arguments: { query: "锁边线迹", kb_ids: [kb], min_score: 0 },
    })) as CallResult;
    const links = (found.content as { type: string; uri?: string }[]).filter((c) => c.type === "resource_link");
    expect(links).toEqual([expect.objectContaining({ uri, mimeType: "text/markdown" })]);
    const hits = (found.structuredContent as { results: { uri: string | null; citation: string }[] }).results;
    expect(hits[0]).toMatchObject({ uri });
    expect(hits[0]?.citation).toContain("sewing.md");
    await client.close();
  });

  it("reads another workshop's document exactly like one that does not exist", async () => {
    const kb = await knowledgeBase(keys.otherBoss, "华美秘方资源");
    const doc = await upload(keys.otherBoss, kb, "secret.md", "# 秘方\n\n只给华美看的内容。");
    const client = await connect(keys.boss);
    const foreign = `weft://knowledge-bases/${kb}/documents/${doc}`;
    const random = "weft://knowledge-bases/kb-nothing/documents/doc-nothing";
    const errors = [];
    for (const uri of [foreign, random, "file:///etc/passwd"]) {
      const error = (await client.readResource({ uri }).catch((e: unknown) => e)) as { code: number; message: string };
      expect(error.code, uri).toBe(-32602);
      errors.push(error.message.replace(uri, "URI"));
    }
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).not.toContain("秘方");
    const listed = await client.listResources({});
    expect(listed.resources.map((r) => r.uri)).not.toContain(foreign);
    await client.close();
  });

  it("offers the consultations the workshop sees and two task prompts, with described arguments", async () => {
    const put = await call("/api/consult/trees", {
      method: "PUT",
      key: keys.admin,
      body: JSON.stringify({
        file_name: "jinxiu-only.json",
        content: JSON.stringify({
          id: "jinxiu-only",
          title: "锦绣专用",
          description: "只有锦绣看得到",
          root: "a",
          nodes: { a: { response: "A" } },
        }),
      }),
    });
    expect(put.status).toBeLessThan(300);
    const boss = await connect(keys.boss);
    const { prompts } = await boss.listPrompts();
    const byName = new Map(prompts.map((p) => [p.name, p]));
    expect(byName.get("consult.garment-defects")?.title).toBeTruthy();
    expect(byName.get("consult.jinxiu-only")).toMatchObject({ title: "锦绣专用", description: "只有锦绣看得到" });
    expect(byName.get("task.record-pieces")).toMatchObject({ title: "登记计件" });
    expect(byName.get("task.monthly-payroll")).toMatchObject({ title: "本月工资汇总" });
    for (const argument of byName.get("task.record-pieces")?.arguments ?? []) expect(argument.description).toBeTruthy();

    const consult = await boss.getPrompt({ name: "consult.garment-defects", arguments: { question: "领子起皱" } });
    const consultText = JSON.stringify(consult.messages);
    expect(consultText).toContain("initiate_session");
    expect(consultText).toContain("领子起皱");
    const record = await boss.getPrompt({
      name: "task.record-pieces",
      arguments: { employee: "张三", process: "上领子", quantity: "50" },
    });
    const recordText = JSON.stringify(record.messages);
    expect(recordText).toContain("张三");
    expect(recordText).toContain("prepare_piece_record");
    expect(recordText).toContain("confirm_action");
    const missing = (await boss.getPrompt({ name: "task.record-pieces", arguments: { employee: "张三" } }).catch((e) => e)) as {
      code: number;
      message: string;
    };
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain("process");

    const other = await connect(keys.otherBoss);
    const theirs = (await other.listPrompts()).prompts.map((p) => p.name);
    expect(theirs).toContain("consult.garment-defects");
    expect(theirs).not.toContain("consult.jinxiu-only");
    await boss.close();
    await other.close();
  });
});

describe("resources for a 2026-07-28 client", () => {
  it("pages the list, and completes the template's knowledge base and document", async () => {
    const kb = await knowledgeBase(keys.boss, "分页");
    const files = Array.from({ length: RESOURCES_PAGE_SIZE + 3 }, (_, i) => ({
      filename: `p${String(i).padStart(3, "0")}.md`,
      content: `# 第${i}页\n\n分页测试第${i}篇。`,
    }));
    const res = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ documents: files }),
    });
    expect(res.status).toBeLessThan(300);
    type Page = { result?: { resources: { uri: string }[]; nextCursor?: string }; error?: { code: number } };
    const page = async (cursor?: string) =>
      (await modernRequest(keys.staff, "resources/list", cursor ? { cursor } : {})).json<Page>();
    const first = await page();
    expect(first.result?.resources).toHaveLength(RESOURCES_PAGE_SIZE);
    expect(first.result?.nextCursor).toBeTypeOf("string");
    const uris = new Set<string>();
    let cursor: string | undefined;
    do {
      const answer = await page(cursor);
      for (const r of answer.result?.resources ?? []) uris.add(r.uri);
      cursor = answer.result?.nextCursor;
    } while (cursor);
    expect([...uris].filter((u) => u.includes(`/${kb}/`))).toHaveLength(files.length);
    expect((await page("not-ours")).error?.code).toBe(-32602);

    const client = await modernMcpClient(keys.staff);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: TEMPLATE, mimeType: "text/markdown" })]);
    const bases = await client.complete({
      ref: { type: "ref/resource", uri: TEMPLATE },
      argument: { name: "knowledge_base", value: kb.slice(0, 4) },
    });
    expect(bases.completion.values).toContain(kb);
    const docs = await client.complete({
      ref: { type: "ref/resource", uri: TEMPLATE },
      argument: { name: "document", value: "" },
      context: { arguments: { knowledge_base: kb } },
    });
    expect(docs.completion.values).toHaveLength(files.length);
    await client.close();
    // Ingesting 53 documents is most of this test's time.
  }, 60_000);
});
