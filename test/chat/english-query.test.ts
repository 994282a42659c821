import { describe, expect, it } from "vitest";
import { searchQuery } from "../../src/chat/english-query.ts";

describe("the chat's search query for an English question", () => {
  it("searches by the Chinese words of a workshop's English question, and leaves Chinese questions alone", () => {
    expect(searchQuery("How do I create an order?")).toBe("新建 订单");
    expect(searchQuery("how to create an order")).toBe("新建 订单");
    expect(searchQuery("how do I set a process price")).toBe("工序 单价 设置");
    expect(searchQuery("what if I forgot my password")).toBe("忘记 密码");
    expect(searchQuery("怎么新建订单 order")).toBe("怎么新建订单 order");
    expect(searchQuery("hello there")).toBe("hello there");
  });
});
