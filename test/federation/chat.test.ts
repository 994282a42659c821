import { env } from "cloudflare:test";
import { MockLanguageModelV4 } from "ai/test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { chatResponse } from "../../src/chat/agent.ts";
import { configFor } from "../../src/config.ts";
import { toolsFor } from "../../src/tools/registry.ts";
import type { UserContext } from "../../src/user-context.ts";
import { finish, step, text, toolCall } from "../chat/scripted-model.ts";
import { assembled, readChunks } from "../chat/stream.ts";
import { keys, testServices } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { DOWN, installFakeNetwork, UPSTREAM } from "./fake-upstream.ts";

const BOSS: UserContext = { userId: "u-boss", tenantId: "t-jinxiu", role: "boss" };
const answer = (words: string) => text("t", [words]);

async function turn(model: MockLanguageModelV4, chatId: string, text: string) {
  const pending: Promise<unknown>[] = [];
  const res = await chatResponse({
    config: configFor(env),
    services: testServices(),
    directory: { db: env.DB },
    waitUntil: (p) => pending.push(p),
    user: BOSS,
    requestId: "fed-chat",
    chatId,
    message: { id: crypto.randomUUID(), text },
    model: () => model,
    toolsFor,
  });
  const chunks = await readChunks(res);
  await Promise.all(pending);
  return { chunks, message: await assembled(chunks) };
}

beforeAll(async () => {
  installFakeNetwork();
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const res = await call("/api/mcp/servers", {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ name: "notes", url: UPSTREAM, expose_on_mcp: false }),
  });
  expect(res.status).toBe(201);
});

describe("external tools in the chat, with a scripted model", () => {
  it("offers an enabled server's tools under the naming rule with converted schemas, and runs a read-only one", async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        step(toolCall("c-mcp_notes_echo", "mcp_notes_echo", { message: "你好" }), finish("tool-calls")),
        step(...answer("好了"), finish("stop")),
      ],
    });
    const { message } = await turn(model, "fed-chat-echo", "回声一下");
    const offered = model.doStreamCalls[0]?.tools ?? [];
    expect(offered.map((t) => t.name)).toEqual(
      expect.arrayContaining(["mcp_notes_echo", "mcp_notes_add_note", "mcp_notes_tree"]),
    );
    // The recursive schema reaches the model converted: the cycle cut, no $defs or $ref left.
    const tree = offered.find((t) => t.name === "mcp_notes_tree") as { inputSchema: unknown } | undefined;
    expect(JSON.stringify(tree?.inputSchema)).not.toMatch(/\$ref|\$defs/);
    const part = message.parts.find((p) => p.type === "tool-mcp_notes_echo") as { state: string; output: unknown };
    expect(part.state).toBe("output-available");
    expect(JSON.stringify(part.output)).toContain("echo: 你好");
  });

  it("turns a tool that may write into a confirm card instead of running it", async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        step(toolCall("c-mcp_notes_add_note", "mcp_notes_add_note", { text: "明天交货" }), finish("tool-calls")),
        step(...answer("请确认"), finish("stop")),
      ],
    });
    const { chunks } = await turn(model, "fed-chat-note", "记个备注");
    const card = chunks.find((c) => c.type === "data-confirm-card") as
      | { data: { summary: string; preview: unknown[] } }
      | undefined;
    expect(card?.data.summary).toContain("notes");
    expect(card?.data.preview).toContainEqual({ label: "text", value: "明天交货" });
  });

  it("tells the model which server is left out and why, without offering its tools", async () => {
    const res = await call("/api/mcp/servers", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "offline", url: DOWN }),
    });
    expect(res.status).toBe(201);
    const model = new MockLanguageModelV4({ doStream: [step(...answer("离线服务现在用不了"), finish("stop"))] });
    await turn(model, "fed-chat-offline", "用离线服务查一下");
    const [system] = model.doStreamCalls[0]?.prompt ?? [];
    expect(system?.role).toBe("system");
    expect(String(system?.content)).toContain(
      "The external MCP server 'offline' is unavailable right now (it could not be reached or did not list its tools); its tools are left out.",
    );
    expect((model.doStreamCalls[0]?.tools ?? []).map((t) => t.name)).toContain("mcp_notes_echo");
  });
});
