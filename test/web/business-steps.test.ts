import { describe, expect, it } from "vitest";
import { ORDER_STEPS } from "../../src/business/order-changes.ts";
import { ApiError } from "../../src/web/api-error.ts";
import { ORDER_NEXT, refusalText, yuanOf } from "../../src/web/business-steps.ts";
import { businessWords } from "../../src/web/business-words.ts";

const zh = businessWords("zh");
const en = businessWords("en");
const refused = (status: number, code: string, message: string) => new ApiError(status, code, message, undefined);

describe("settings → 车间资料's own rules", () => {
  it("offers an order only the steps the server allows", () => {
    expect(ORDER_NEXT).toEqual(ORDER_STEPS);
  });

  it("takes a price in 元 as a person types it, and nothing else", () => {
    expect(yuanOf("0.9")).toBe(0.9);
    expect(yuanOf(" 12 ")).toBe(12);
    expect(yuanOf("100000")).toBe(100_000);
    expect(yuanOf("100000.01")).toBeNull();
    expect(yuanOf("0.125")).toBeNull();
    expect(yuanOf("-1")).toBeNull();
    expect(yuanOf("九毛")).toBeNull();
    expect(yuanOf("")).toBeNull();
  });

  it("says a refused change in the person's language", () => {
    const meanwhile = refused(409, "conflict", "price changed");
    expect(refusalText(meanwhile, zh)).toBe("这条记录刚被别人改过，请看最新的内容再改。（price changed）");
    expect(refusalText(meanwhile, en)).toContain("Someone changed this record meanwhile");
    expect(refusalText(refused(400, "invalid_input", "name: required"), zh)).toBe("填写的内容有问题：name: required");
    expect(refusalText(refused(403, "forbidden", "no"), en)).toBe("You may not change the workshop's data.");
    expect(refusalText(refused(409, "ambiguous_name", "两个张三"), zh)).toBe("两个张三");
    expect(refusalText(new TypeError("Failed to fetch"), zh)).toBe("无法连接服务器，请稍后再试。");
  });
});
