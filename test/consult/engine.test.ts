import { beforeAll, describe, expect, it } from "vitest";
import { type Catalog, navigate, type SessionRecord, startSession, viewOf } from "../../src/consult/engine.ts";
import { testCatalog } from "./fixtures.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await testCatalog();
});

const NOW = "2026-11-25T00:00:00.000Z";

function go(record: SessionRecord, option: string, input?: string) {
  const result = navigate(catalog, record, option, input, NOW);
  if (!result.ok) throw new Error(result.message);
  return { record: result.record, view: viewOf(catalog, result.record, result.notice) };
}

describe("starting a consultation", () => {
  it("starts at the node whose Chinese trigger the question contains, without spaces", () => {
    const record = startSession(catalog, "我们车间的衣服缝线起皱怎么办");
    expect(record.step).toEqual({ treeId: "garment-defects", nodeId: "pucker_fabric" });
    expect(viewOf(catalog, record).response).toContain("面料");
  });

  it("starts at a tree's root when only the tree's triggers match", () => {
    const record = startSession(catalog, "最近次品特别多");
    expect(record.step).toEqual({ treeId: "garment-defects", nodeId: "root" });
  });

  it("matches English triggers", () => {
    expect(startSession(catalog, "Which AI chips should I look at?").step).toEqual({
      treeId: "tech-investment",
      nodeId: "node_ai_hardware",
    });
  });

  it("lets the user choose a topic when nothing matches", () => {
    const record = startSession(catalog, "你好");
    expect(record.step.treeId).toBeNull();
    const view = viewOf(catalog, record);
    expect(view.options.map((o) => o.id)).toEqual(["garment-defects", "tech-investment"]);
    expect(view.response).toContain("请选择");
    expect(view.is_complete).toBe(false);
  });
});

describe("navigating", () => {
  it("follows an option and offers back and end even where the tree does not", () => {
    const start = startSession(catalog, "质量问题");
    const { view } = go(start, "skip");
    expect(view.current_step).toBe("跳针：出现位置");
    expect(view.options.map((o) => o.id)).toEqual(["thick", "random", "stretchy", "back", "end"]);
  });

  it("goes back to the previous node from the history", () => {
    const start = startSession(catalog, "质量问题");
    const deeper = go(go(start, "break").record, "top").record;
    const { record, view } = go(deeper, "back");
    expect(record.step.nodeId).toBe("break_which");
    expect(view.current_step).toBe("断线：面线还是底线");
  });

  it("stays put with a note when asked to go back at the first step", () => {
    const start = startSession(catalog, "质量问题");
    const { record, view } = go(start, "back");
    expect(record.step).toEqual(start.step);
    expect(view.response).toContain("已经在第一步");
    expect(view.options.map((o) => o.id)).not.toContain("back");
  });

  it("ends at any node with end, summarising the choices", () => {
    const start = startSession(catalog, "质量问题");
    const { record, view } = go(go(start, "size").record, "end");
    expect(record.complete).toBe(true);
    expect(view.is_complete).toBe(true);
    expect(view.options).toEqual([]);
    expect(view.response).toContain("成品尺寸偏差");
  });

  it("lists each choice once in the summary after going back and choosing again", () => {
    const start = startSession(catalog, "质量问题");
    const wrong = go(go(start, "pucker").record, "thin").record;
    const again = go(go(go(wrong, "back").record, "back").record, "break").record;
    const { record, view } = go(go(again, "top").record, "end");
    // The record keeps every move; the summary lists the choices that stand.
    expect(record.path.map((entry) => entry.option)).toEqual(["pucker", "thin", "back", "back", "break", "top", "end"]);
    const summary = view.response.slice(view.response.indexOf("您的选择："));
    expect(summary.split("\n").slice(1)).toEqual(["- 断线", "- 面线断"]);
    expect(view.response).not.toContain("缝线起皱");
    expect(view.response).not.toContain("轻薄面料");
  });

  it("lists a choice made, gone back over and made again only once", () => {
    const start = startSession(catalog, "质量问题");
    const twice = go(go(go(start, "size").record, "back").record, "size").record;
    const { view } = go(twice, "end");
    expect(view.response.match(/成品尺寸偏差/g)).toHaveLength(1);
  });

  it("summarises the choices from the topic chooser once after leaving a topic and entering it again", () => {
    const start = startSession(catalog, "hello");
    const back = go(go(start, "garment-defects").record, "back").record;
    const { view } = go(go(back, "garment-defects").record, "end");
    expect(view.response.match(/服装质量问题诊断/g)).toHaveLength(1);
  });

  it("completes when an option's next_node is null", () => {
    const start = startSession(catalog, "机油弄脏了衣服");
    expect(start.step.nodeId).toBe("stain_type");
    const { view } = go(go(start, "oil").record, "solved");
    expect(view.is_complete).toBe(true);
  });

  it("completes on reaching a node without options", () => {
    const start = startSession(catalog, "线张力怎么调");
    expect(start.step.nodeId).toBe("thread_tension");
    const { view } = go(start, "still");
    expect(view.is_complete).toBe(true);
    expect(view.response).toContain("机修");
  });

  it("rejects an option id that the current node does not offer, listing the valid ids, and changes nothing", () => {
    const start = startSession(catalog, "质量问题");
    const before = structuredClone(start);
    const result = navigate(catalog, start, "hardware", undefined, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("invalid_option");
    expect(result.message).toContain("pucker, skip, break, size, stain");
    expect(start).toEqual(before);
  });

  it("walks from the topic chooser into a tree and back out", () => {
    const start = startSession(catalog, "hello");
    const inside = go(start, "tech-investment");
    expect(inside.record.step).toEqual({ treeId: "tech-investment", nodeId: "root" });
    const out = go(inside.record, "back");
    expect(out.record.step.treeId).toBeNull();
  });
});

describe("free text with provide_more_info", () => {
  it("moves when the words clearly fit one option", () => {
    const start = startSession(catalog, "质量问题");
    const { record } = go(start, "provide_more_info", "车的时候线老是断");
    expect(record.step.nodeId).toBe("break_which");
    expect(record.inputs).toMatchObject([{ text: "车的时候线老是断", understood: true }]);
  });

  it("matches triggers of nodes below an option", () => {
    const start = startSession(catalog, "缝线起皱");
    const { record } = go(start, "provide_more_info", "是莱卡面料");
    expect(record.step.nodeId).toBe("knit_fabric");
  });

  it("accepts an option number", () => {
    const start = startSession(catalog, "缝线起皱");
    expect(go(start, "provide_more_info", "3").record.step.nodeId).toBe("thread_tension");
  });

  it("keeps the node, records the input and says what was not understood", () => {
    const start = startSession(catalog, "质量问题");
    const { record, view } = go(start, "provide_more_info", "今天天气不错");
    expect(record.step).toEqual(start.step);
    expect(record.inputs).toMatchObject([{ text: "今天天气不错", understood: false }]);
    expect(view.response).toContain("没能理解“今天天气不错”");
    expect(view.options.map((o) => o.id)).toEqual(viewOf(catalog, start).options.map((o) => o.id));
  });

  it("requires user_input", () => {
    const result = navigate(catalog, startSession(catalog, "质量问题"), "provide_more_info", "  ", NOW);
    expect(result).toMatchObject({ ok: false, code: "bad_request" });
  });

  it("picks a topic from free text at the chooser", () => {
    const start = startSession(catalog, "hi");
    expect(go(start, "provide_more_info", "I want to talk about cloud computing").record.step).toEqual({
      treeId: "tech-investment",
      nodeId: "root",
    });
  });
});

describe("ids that name built-in object properties", () => {
  // Refused at upload; the engine still never lets such an id reach Object.prototype.
  const nodes = JSON.parse(
    '{"constructor":{"response":"C","options":[{"id":"toString","description":"next","next_node":"__proto__"}],"triggers":[]},"__proto__":{"response":"P","options":[],"triggers":[]}}',
  );
  const odd: Catalog = {
    order: ["__proto__", "plain"],
    trees: new Map([
      [
        "__proto__",
        {
          id: "__proto__",
          title: "Odd",
          description: "",
          language: "en",
          root: "constructor",
          triggers: [],
          nodes,
          version: "1",
        },
      ],
      [
        "plain",
        {
          id: "plain",
          title: "Plain",
          description: "",
          language: "en",
          root: "a",
          triggers: [],
          nodes: { a: { response: "A", options: [], triggers: [] } },
          version: "1",
        },
      ],
    ]),
  };

  it("walks them as ordinary ids and never finds a node that is not the tree's own", () => {
    let record = startSession(odd, "hello");
    expect(viewOf(odd, record).options.map((o) => o.id)).toEqual(["__proto__", "plain"]);
    let result = navigate(odd, record, "__proto__", undefined, NOW);
    if (!result.ok) throw new Error(result.message);
    record = result.record;
    expect(viewOf(odd, record).response).toBe("C");
    result = navigate(odd, record, "toString", undefined, NOW);
    if (!result.ok) throw new Error(result.message);
    expect(viewOf(odd, result.record)).toMatchObject({ response: expect.stringContaining("P"), is_complete: true });
    const missing = navigate(odd, { ...record, step: { treeId: "plain", nodeId: "hasOwnProperty" } }, "x", undefined, NOW);
    expect(missing).toMatchObject({ ok: false, code: "invalid_option" });
  });
});
