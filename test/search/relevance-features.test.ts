import { describe, expect, it } from "vitest";
import { localRerankScore } from "../../src/search/local-reranker.ts";
import {
  FEATURE_NAMES,
  type FeatureCandidate,
  type FeatureName,
  relevanceFeatures,
} from "../../src/search/relevance-features.ts";

const ALL = new Set<FeatureName>(FEATURE_NAMES);
const candidate = (text: string, raw: number, keyword = 0, source = text): FeatureCandidate => ({ text, source, raw, keyword });

describe("the evidence calibration reads of a result in its list", () => {
  it("reads how far a result trails the best and the mean of the first ten, whatever the list's length", () => {
    const raws = [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.1, 0.1];
    const features = relevanceFeatures(
      "问题",
      raws.map((raw, i) => candidate(`第${i}段`, raw, raw / 2)),
      ALL,
    );
    expect(features.map((f) => f.belowBest)).toEqual(raws.map((raw) => raw - 0.9));
    // The head is the first ten; the two weak results after it do not pull the mean down.
    for (const f of features) expect(f.headMean).toBeCloseTo(0.6, 10);
    expect(features.map((f) => f.keyword)).toEqual(raws.map((raw) => raw / 2));
    features.forEach((f, i) => {
      expect(f.keywordBelowBest).toBeCloseTo((raws[i] as number) / 2 - 0.45, 10);
    });
    // Taken over ten places whatever the list's length: two strong matches are no crowd.
    const short = relevanceFeatures("问题", [candidate("甲", 0.9), candidate("乙", 0.8)], ALL);
    for (const f of short) expect(f.headMean).toBeCloseTo(0.17, 10);
  });

  it("gives a passage that states the answer other results state more agreement than one that states another", () => {
    const query = "2022世界5G大会举办的地点是哪里";
    const list = [
      candidate("2022世界5G大会8月10日至12日在哈尔滨举办。", 0.8),
      candidate("本报讯 2022世界5G大会在哈尔滨举办，14个分论坛。", 0.78),
      candidate("作为2022世界5G大会的举办地，哈尔滨求新求变。", 0.75),
      candidate("2022世界5G大会举办期间，上海的运营商发布了新套餐。", 0.77),
      candidate("去年的世界5G大会在北京举办。", 0.6),
    ];
    const features = relevanceFeatures(query, list, ALL);
    const agreeing = features.slice(0, 3).map((f) => f.agreement);
    for (const a of agreeing) {
      expect(a).toBeGreaterThan(features[3]?.agreement as number);
      expect(a).toBeGreaterThan(features[4]?.agreement as number);
    }
    // Consensus scales agreement by the strongest agreement in the head, the same for all of them.
    const strongest = Math.max(...features.map((f) => f.agreement));
    for (const f of features) expect(f.consensus).toBeCloseTo(f.agreement * strongest, 10);
  });

  it("counts agreement between documents, not between chunks of one document", () => {
    const agreementFrom = (second: string) =>
      relevanceFeatures(
        "大会在哪里举办",
        [
          candidate("大会在哈尔滨举办。", 0.8, 0, "手册"),
          candidate("大会在哈尔滨举办，欢迎参加。", 0.7, 0, second),
          candidate("天气。", 0.1),
        ],
        ALL,
      ).map((f) => f.agreement);
    const [first, second] = agreementFrom("手册");
    expect([first, second]).toEqual([0, 0]);
    const [firstOfTwo, secondOfTwo] = agreementFrom("新闻");
    expect(firstOfTwo).toBeGreaterThan(0);
    expect(secondOfTwo).toBeGreaterThan(0);
  });

  it("gives a passage whose answer sentence other documents restate more echo than one sharing a name with them", () => {
    const features = relevanceFeatures(
      "哪些斯诺克选手被终身禁赛",
      [
        candidate("处罚结果出炉，梁文博、李行被终身禁赛，颜丙涛禁赛5年。", 0.8),
        candidate("世界台联宣布，梁文博和李行被终身禁赛。", 0.78),
        candidate("梁文博、李行被终身禁赛，鲁宁禁赛5年4个月。", 0.76),
        candidate("2018年于德陆和曹宇鹏被禁赛，当时的斯诺克选手李行仍在参赛。", 0.77),
      ],
      ALL,
    );
    const echoes = features.map((f) => f.echo);
    for (const e of echoes) {
      expect(e).toBeGreaterThanOrEqual(0);
      expect(e).toBeLessThanOrEqual(1);
    }
    for (const e of echoes.slice(0, 3)) expect(e).toBeGreaterThan(echoes[3] as number);
  });

  it("reads whether each passage states a quantity or a day, and only when asked to", () => {
    const list = [
      candidate("乌江特大桥全长1834米，12月18日凌晨合龙，投资18亿元。", 0.8),
      candidate("乌江特大桥的建设备受关注。", 0.7),
    ];
    const features = relevanceFeatures("乌江特大桥多长", list, ALL);
    expect(features.map((f) => [f.quantity, f.moment])).toEqual([
      [1, 1],
      [0, 0],
    ]);
    const without = relevanceFeatures("乌江特大桥多长", list, new Set<FeatureName>(["raw"]));
    expect(without.map((f) => [f.quantity, f.moment])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("hears no echo from chunks of the passage's own document", () => {
    const sentence = "梁文博、李行被终身禁赛。";
    const features = relevanceFeatures(
      "哪些选手被终身禁赛",
      [candidate(sentence, 0.8, 0, "公告"), candidate(sentence, 0.7, 0, "公告")],
      ALL,
    );
    expect(features.map((f) => f.echo)).toEqual([0, 0]);
    const apart = relevanceFeatures(
      "哪些选手被终身禁赛",
      [candidate(sentence, 0.8, 0, "公告"), candidate(sentence, 0.7, 0, "新闻")],
      ALL,
    );
    expect(apart.map((f) => f.echo)).toEqual([1, 1]);
  });

  it("finds no agreement in a list whose passages agree on nothing beyond the query's words", () => {
    const features = relevanceFeatures(
      "苹果旗舰店",
      [candidate("苹果旗舰店开业。", 0.5), candidate("苹果旗舰店关门。", 0.4), candidate("苹果旗舰店排队。", 0.3)],
      ALL,
    );
    for (const f of features) expect(f.agreement).toBe(0);
  });

  it("scores a passage missing the query's rarest words below one that holds them, whatever its other words", () => {
    const features = relevanceFeatures(
      "冬奥会吉祥物的名字",
      [
        candidate("冬奥会的名字很多，冬奥会开幕了。", 0.6),
        candidate("冬奥会吉祥物是冰墩墩。", 0.5),
        candidate("冬奥会的名字。", 0.45),
        candidate("冬奥会举办。", 0.4),
      ],
      ALL,
    );
    // 冬奥会 is in every passage and weighs little; 吉祥物 is in one.
    expect(features[1]?.coverageBelowBest).toBe(0);
    expect(features[0]?.coverageBelowBest).toBeLessThan(-0.2);
    expect(features[3]?.coverageBelowBest).toBeLessThan(features[0]?.coverageBelowBest as number);
  });

  it("finds a one-character query word inside a passage's longer run", () => {
    // Question words blanked, the query's units are 北京, 京在 and the lone 省, which 河北省 holds.
    const features = relevanceFeatures(
      "北京在哪个省",
      [candidate("北京在河北省。", 0.6), candidate("北京 在 省", 0.5), candidate("上海在江苏省", 0.4)],
      ALL,
    );
    expect(features[0]?.coverageBelowBest).toBe(0);
    expect(features[1]?.coverageBelowBest).toBeLessThan(0);
    expect(features[2]?.coverageBelowBest).toBeLessThan(features[1]?.coverageBelowBest as number);
  });

  it("reads the query and the passages through the synonym canonicaliser", () => {
    const canonical = (text: string) => text.replaceAll("创建", "新建");
    const list = [candidate("先登录。创建订单时填写款式。", 0.5), candidate("订单列表。", 0.4)];
    const plain = relevanceFeatures("新建订单", list, ALL);
    const withSynonyms = relevanceFeatures("新建订单", list, ALL, canonical);
    expect(withSynonyms[1]?.coverageBelowBest).toBeLessThan(plain[1]?.coverageBelowBest as number);
  });

  it("gives the local reranker's score as the phrase feature, with the raw score as the first stage", () => {
    const list = [candidate("布林肯将于6月18日访华。", 0.7), candidate("布林肯是国务卿。", 0.6)];
    const features = relevanceFeatures("布林肯访华时间", list, ALL);
    list.forEach((c, i) => {
      expect(features[i]?.phrase).toBe(localRerankScore("布林肯访华时间", { text: c.text, score: c.raw }));
    });
  });

  it("computes only the features asked for, leaving the costly ones at 0", () => {
    const list = [candidate("哈尔滨举办。", 0.8), candidate("哈尔滨举办了大会。", 0.7)];
    const features = relevanceFeatures("大会在哪里举办", list, new Set<FeatureName>(["raw", "belowBest"]));
    for (const f of features) {
      expect(f.agreement).toBe(0);
      expect(f.consensus).toBe(0);
      expect(f.coverageBelowBest).toBe(0);
      expect(f.phrase).toBe(0);
    }
  });

  it("gives nothing for an empty list", () => {
    expect(relevanceFeatures("问题", [], ALL)).toEqual([]);
  });
});
