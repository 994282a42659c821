import { describe, expect, it } from "vitest";
import { answerShapeMatch, asksForShape, numberMatch, statedFacts } from "../../src/search/answer-shape.ts";

describe("answer shape", () => {
  it("wants a day or month for a Chinese 'when' that names its year, a year otherwise", () => {
    expect(answerShapeMatch("2022春运开始时间", "春运于1月17日开始")).toBe(1);
    expect(answerShapeMatch("2022春运开始时间", "2022年春运备受关注")).toBe(0);
    expect(answerShapeMatch("北京大学是什么时候成立的", "北京大学创办于1898年")).toBe(1);
  });

  it("wants a year or month name for an English 'when', and a number for 'how many'", () => {
    expect(answerShapeMatch("When did the war end?", "The war ended in 1945.")).toBe(1);
    expect(answerShapeMatch("When did the war end?", "The war was long.")).toBe(0);
    expect(answerShapeMatch("How many people live there?", "About 3 million people.")).toBe(1);
    expect(answerShapeMatch("香港立法会有多少个议席", "议席数量有所增加")).toBe(0);
  });

  it("reads an English 'when' as asking only at the start of the question", () => {
    expect(asksForShape("When did the war end?")).toBe(true);
    expect(asksForShape("In what year did the war end?")).toBe(true);
    expect(asksForShape("What happened when the war ended?")).toBe(false);
    expect(answerShapeMatch("What happened when the war ended?", "Peace talks began.")).toBe(1);
  });

  it("reads a long run of numerals, with or without a month after it", () => {
    expect(answerShapeMatch("2022春运开始时间", "一".repeat(10_000))).toBe(0);
    expect(answerShapeMatch("2022春运开始时间", `${"一".repeat(10_000)}月`)).toBe(1);
  });

  it("does not judge questions that ask for neither", () => {
    expect(asksForShape("跳针怎么办")).toBe(false);
    expect(answerShapeMatch("怎么新建订单", "在订单页面点新建订单")).toBe(1);
    expect(answerShapeMatch("跳针怎么办", "换针")).toBe(1);
  });
});

describe("number match", () => {
  it("is the share of the query's numbers the passage holds, 1 without numbers", () => {
    expect(numberMatch("2022年特斯拉交付量", "2022年交付131万辆")).toBe(1);
    expect(numberMatch("2022年特斯拉交付量", "2021年交付93万辆")).toBe(0);
    expect(numberMatch("２０２２年ＧＤＰ", "2022年")).toBe(1);
    expect(numberMatch("工资怎么算", "任何内容")).toBe(1);
  });
});

describe("stated facts", () => {
  it("finds a number with what it counts or measures, in digits or in numerals", () => {
    expect(statedFacts("踩踏事件造成至少12人死亡").quantity).toBe(1);
    expect(statedFacts("交付量达到131万辆").quantity).toBe(1);
    expect(statedFacts("票房1.5亿元").quantity).toBe(1);
    expect(statedFacts("增长25%").quantity).toBe(1);
    expect(statedFacts("印度已有三艘核潜艇").quantity).toBe(1);
    // A year, an ordinal or a bare number is not a quantity.
    expect(statedFacts("2022年的第七届立法会").quantity).toBe(0);
    expect(statedFacts("编号 2047").quantity).toBe(0);
  });

  it("finds a day or a time of day, not a year alone", () => {
    expect(statedFacts("加冕礼于2023年5月6日举行").moment).toBe(1);
    expect(statedFacts("12月18日凌晨落幕").moment).toBe(1);
    expect(statedFacts("十月一日开幕").moment).toBe(1);
    expect(statedFacts("今天上午开工").moment).toBe(1);
    expect(statedFacts("2022年是丰收的一年").moment).toBe(0);
  });

  it("reads long runs of digits and numerals, at their head only", () => {
    expect(statedFacts(`${"1".repeat(10_000)}人`)).toEqual({ quantity: 1, moment: 0 });
    expect(statedFacts("一".repeat(10_000))).toEqual({ quantity: 0, moment: 0 });
    expect(statedFacts(`${"9".repeat(10_000)}日`)).toEqual({ quantity: 0, moment: 0 });
  });
});
