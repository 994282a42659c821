import { describe, expect, it } from "vitest";
import { keys, logins } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { newKnowledgeBase } from "../search/sections.ts";
import { uploadFile } from "../search/workshop-files.ts";
import { sendChat } from "./chat-api.ts";
import { signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

describe("the chat answers from the workshop's own files", { timeout: 30_000 }, () => {
  it("answers each everyday question from its file, citing the file and its page or sheet", async () => {
    const kb = await newKnowledgeBase("车间文件");
    for (const name of ["工艺单.pdf", "设备保养制度.docx", "工价表.xlsx", "夜班规定.csv"]) {
      expect((await uploadFile(kb, name)).status, name).toBe(201);
    }
    const cookie = await signIn("boss", "boss123");
    const cases: [string, string, string][] = [
      ["门襟宽度是多少", "门襟宽度为 3.5 厘米", "工艺单.pdf › 第 2 页"],
      ["梭床什么时候清理", "每天下班前清理梭床", "设备保养制度.docx › 日常保养"],
      // 锁眼的单价是多少 is answered from the workshop's process records where they hold 锁眼 (the
      // demo's do), and from the file where they do not (the next test).
      ["结算方式是什么", "按月结算，次月 10 日发放", "工价表.xlsx › 说明"],
      ["夜班补贴每晚多少钱", "每晚 30 元", "夜班规定.csv"],
    ];
    for (const [index, [question, answer, citation]] of cases.entries()) {
      const chunks = await readChunks(await sendChat(cookie, `files-${index}`, question, { kbIds: [kb] }));
      const text = textOf(await assembled(chunks));
      expect(text, question).toContain(answer);
      expect(text, question).toContain(citation);
      const sources = chunks.find((c) => c.type === "data-sources") as { data: { sources: { citation: string }[] } } | undefined;
      expect(sources?.data.sources.map((s) => s.citation).join("\n"), question).toContain(citation);
    }
  });

  it("answers a process's price from the uploaded price list when the workshop's records hold no such process", async () => {
    // 华美服饰 has not set up 锁眼 as a process; its 工价表.xlsx prices it.
    const created = await call("/api/knowledge-bases", {
      method: "POST",
      key: keys.otherBoss,
      body: JSON.stringify({ name: "工价" }),
    });
    const kb = (await created.json<{ id: string }>()).id;
    expect((await uploadFile(kb, "工价表.xlsx", { key: keys.otherBoss })).status).toBe(201);
    const cookie = await signIn(logins.otherBoss.username, logins.otherBoss.password);
    const chunks = await readChunks(await sendChat(cookie, "files-price", "锁眼的单价是多少", { kbIds: [kb] }));
    const text = textOf(await assembled(chunks));
    expect(text).toContain("工序记录里没有这道工序");
    expect(text).toContain("0.23");
    expect(text).toContain("工价表.xlsx");
  });
});
