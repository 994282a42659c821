import { describe, expect, it } from "vitest";
import type { ConfirmCardData } from "../../src/shapes.ts";
import { consultationStep, type WeftMessage, withActionOutcome } from "../../src/web/chat-types.ts";

const card = (actionId: string): ConfirmCardData => ({
  action_id: actionId,
  kind: "piece_record",
  status: "pending",
  summary: "记录计件",
  preview: [{ label: "员工", value: "李娟" }],
  ambiguities: [],
  created_at: "2026-11-26T09:50:00.000Z",
  expires_at: "2026-11-26T10:00:00.000Z",
  confirm_url: `http://weft.test/actions/${actionId}`,
});

const messages: WeftMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "给李娟记 30 件" }] },
  {
    id: "a1",
    role: "assistant",
    parts: [
      { type: "text", text: "请确认：" },
      { type: "data-confirm-card", id: "act_1", data: card("act_1") },
      { type: "data-confirm-card", id: "act_2", data: card("act_2") },
    ],
  },
];

describe("updating a confirm card with its outcome", () => {
  it("changes only the card whose id is the action id", () => {
    const next = withActionOutcome(messages, "act_1", { status: "confirmed", result: "已记录 30 件" });
    const parts = next[1]!.parts;
    expect(parts[1]).toMatchObject({ id: "act_1", data: { status: "confirmed", outcome: "已记录 30 件", summary: "记录计件" } });
    expect(parts[2]).toMatchObject({ id: "act_2", data: { status: "pending" } });
    expect(next[0]).toBe(messages[0]);
    expect(messages[1]!.parts[1]).toMatchObject({ data: { status: "pending" } });
  });

  it("leaves the messages alone for an unknown action id", () => {
    expect(withActionOutcome(messages, "nope", { status: "failed" })).toEqual(messages);
  });
});

describe("reading a consultation step from a tool output", () => {
  const output = {
    session_id: "s1",
    response: "跳针出现在哪里？",
    current_step: "跳针：出现位置",
    options: [
      { id: "a", description: "裤腰" },
      { id: 7, description: "bad" },
    ],
    is_complete: false,
  };

  it("reads a step's options, dropping malformed ones", () => {
    expect(consultationStep(output)?.options).toEqual([{ id: "a", description: "裤腰" }]);
    expect(consultationStep(output)?.response).toBe("跳针出现在哪里？");
  });

  it("ignores outputs that are not a step, a search's among them", () => {
    expect(consultationStep({ summary: "找到 2 段", results: [] })).toBeNull();
    expect(consultationStep({ response: "跳针出现在哪里？", options: [] })).toBeNull();
    expect(consultationStep({ text: "hi" })).toBeNull();
    expect(consultationStep(null)).toBeNull();
  });
});
