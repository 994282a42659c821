import { describe, expect, it } from "vitest";
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
      // 锁眼的单价是多少 is a question about the workshop's own process records (query_processes); over
      // /mcp, knowledge_search finds it in the file (test/search/files.test.ts).
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
});
