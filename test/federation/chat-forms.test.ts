import { env } from "cloudflare:test";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { UIMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { chatResponse } from "../../src/chat/agent.ts";
import { configFor } from "../../src/config.ts";
import type { ToolFormData } from "../../src/shapes.ts";
import { toolsFor } from "../../src/tools/registry.ts";
import { sendChat } from "../chat/chat-api.ts";
import { finish, step, text, toolCall } from "../chat/scripted-model.ts";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { assembled, readChunks, textOf } from "../chat/stream.ts";
import { keys, testServices } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { installFakeNetwork } from "./fake-upstream.ts";

// A workshop's cutting-room server, as the fake upstreams are: a real SDK server, built per request.
// Its tools take more than a sentence gives: several fields, an enum, a yes/no and an object.
const FORMS = "https://forms.example.com/mcp";
const calls: { name: string; args: unknown }[] = [];

function formsServer(): McpServer {
  const server = new McpServer({ name: "forms", version: "1.0.0" });
  server.registerTool(
    "measure",
    {
      description: "Looks up a size's finished measurements.",
      inputSchema: {
        size: z.enum(["S", "M", "L"]).describe("the size"),
        chest: z.number().describe("chest in cm"),
        fit: z.object({ ease: z.number(), note: z.string() }).describe("how loose it sits"),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      calls.push({ name: "measure", args });
      return { content: [{ type: "text", text: `size ${args.size}: chest ${args.chest + args.fit.ease} cm` }] };
    },
  );
  server.registerTool(
    "book_cutting",
    {
      description: "Books the cutting table.",
      inputSchema: {
        style: z.string().describe("style code"),
        pieces: z.number().int().describe("how many pieces"),
        rush: z.boolean().describe("before others"),
        layout: z.object({ layers: z.number().int(), marker: z.string() }).describe("the lay"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async (args) => {
      calls.push({ name: "book_cutting", args });
      return { content: [{ type: "text", text: `booked ${args.style} × ${args.pieces}` }] };
    },
  );
  return server;
}

async function answer(request: Request): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await formsServer().connect(transport);
  return transport.handleRequest(request, { parsedBody: request.method === "POST" ? await request.clone().json() : undefined });
}

let cookie: string;

beforeAll(async () => {
  installFakeNetwork((request) => (new URL(request.url).origin === "https://forms.example.com" ? answer(request) : undefined));
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const res = await call("/api/mcp/servers", {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ name: "forms", url: FORMS, expose_on_mcp: false }),
  });
  expect(res.status).toBe(201);
  cookie = await signIn("boss", "boss123");
});

async function ask(chatId: string, text: string): Promise<UIMessage> {
  return assembled(await readChunks(await sendChat(cookie, chatId, text)));
}

function formOf(message: UIMessage): ToolFormData | undefined {
  return (message.parts.find((p) => p.type === "data-tool-form") as { data: ToolFormData } | undefined)?.data;
}

describe("a form for an external tool's arguments, through /api/chat with the offline model", () => {
  it("gives a form built from the tool's schema when the words cannot fill it, and calls nothing", async () => {
    const before = calls.length;
    const message = await ask("form-measure", "用 forms 的 measure");
    const form = formOf(message);
    expect(form).toMatchObject({ toolName: "mcp_forms_measure", title: "measure (forms)", values: {} });
    const schema = (form?.schema ?? {}) as { properties: Record<string, { type?: string; enum?: string[] }>; required: string[] };
    const properties = schema.properties;
    expect(properties.size?.enum).toEqual(["S", "M", "L"]);
    expect(properties.chest?.type).toBe("number");
    expect(properties.fit?.type).toBe("object");
    expect(schema.required).toEqual(["size", "chest", "fit"]);
    // The call's part says a form is waiting, not an error; the reply points at the form.
    const part = message.parts.find((p) => p.type === "tool-mcp_forms_measure") as { state: string; output: { status: string } };
    expect(part).toMatchObject({ state: "output-available", output: { status: "needs_input" } });
    expect(textOf(message)).toBe("这个工具需要的参数我没法从这句话里读全：请在上面的表单里填好，再点“调用”。");
    expect(calls.length).toBe(before);
  });

  it("calls a read-only tool with what the submitted form holds, and says what it answered", async () => {
    await ask("form-measure-2", "用 forms 的 measure");
    const message = await ask("form-measure-2", 'mcp_forms_measure {"size":"M","chest":96,"fit":{"ease":8,"note":"宽松"}}');
    expect(calls.at(-1)).toEqual({ name: "measure", args: { size: "M", chest: 96, fit: { ease: 8, note: "宽松" } } });
    expect(textOf(message)).toBe("size M: chest 104 cm");
  });

  it("gives the form again when what is submitted does not fit the schema", async () => {
    const before = calls.length;
    const message = await ask("form-measure-3", 'mcp_forms_measure {"size":"XXL","chest":"wide"}');
    expect(formOf(message)).toMatchObject({ toolName: "mcp_forms_measure", values: { size: "XXL", chest: "wide" } });
    expect(calls.length).toBe(before);
  });

  it("turns a submitted form for a tool that may write into a confirm card; the call runs once confirmed", async () => {
    const first = await ask("form-book", "调用 book_cutting");
    expect(formOf(first)?.toolName).toBe("mcp_forms_book_cutting");
    const before = calls.length;
    const args = { style: "A01", pieces: 120, rush: true, layout: { layers: 40, marker: "M-2" } };
    const chunks = await readChunks(await sendChat(cookie, "form-book", `mcp_forms_book_cutting ${JSON.stringify(args)}`));
    const card = chunks.find((c) => c.type === "data-confirm-card") as { id: string } | undefined;
    expect(card).toBeDefined();
    expect(calls.length).toBe(before);
    const confirmed = await browserCall(`/api/actions/${card?.id}/confirm`, cookie, { method: "POST" });
    expect(confirmed.status).toBe(200);
    expect(calls.at(-1)).toEqual({ name: "book_cutting", args });
  });

  it("gives a remote model's bad arguments to an external tool the same form, and leaves Weft's own tools' refusals as errors", async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        step(
          toolCall("c-ext", "mcp_forms_measure", { size: "M" }),
          toolCall("c-weft", "query_piece_records", { period: "someday" }),
          finish("tool-calls"),
        ),
        step(...text("t", ["请填表"]), finish("stop")),
      ],
    });
    const res = await chatResponse({
      config: configFor(env),
      services: testServices(),
      directory: { db: env.DB },
      waitUntil: () => {},
      user: { userId: "u-boss", tenantId: "t-jinxiu", role: "boss" },
      requestId: "form-remote",
      chatId: "form-remote",
      message: { id: crypto.randomUUID(), text: "量一下M码" },
      model: () => model,
      toolsFor,
    });
    const message = await assembled(await readChunks(res));
    expect(message.parts.find((p) => p.type === "data-tool-form")).toMatchObject({
      id: "form-c-ext",
      data: { toolName: "mcp_forms_measure", values: { size: "M" } },
    });
    expect(message.parts.filter((p) => p.type === "data-tool-form")).toHaveLength(1);
    expect(message.parts.find((p) => p.type === "tool-query_piece_records")).toMatchObject({ state: "output-error" });
  });
});
