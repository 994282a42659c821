import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";

interface State {
  session_id: string;
  response: string;
  current_step: string;
  options: { id: string; description: string }[];
  is_complete: boolean;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<State> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0]!.text;
  if (result.isError) throw new Error(text);
  const state = result.structuredContent as unknown as State;
  // Agents that read only the text get what to say and every option's id, to go on with.
  expect(text.startsWith(state.response)).toBe(true);
  for (const option of state.options) expect(text).toContain(`- ${option.id}: ${option.description}`);
  return state;
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]!.text;
}

describe("a consultation over MCP", () => {
  it("lists both consultation tools with output schemas", async () => {
    const client = await mcpClient(keys.staff);
    const { tools } = await client.listTools();
    for (const name of ["initiate_session", "navigate_session"]) {
      const found = tools.find((t) => t.name === name)!;
      expect(found.outputSchema?.properties).toHaveProperty("session_id");
    }
    expect(tools.find((t) => t.name === "navigate_session")?.description).toContain("provide_more_info");
  });

  it("runs in Chinese from a vague question to a leaf, going back and giving free text on the way", async () => {
    const client = await mcpClient(keys.staff);
    // The workshop's one consultation begins at once: there is no other topic to choose from.
    let state = await tool(client, "initiate_session", { user_query: "你好，我想咨询一下" });
    expect(state.current_step).toBe("问题类型");

    state = await tool(client, "navigate_session", { session_id: state.session_id, selected_option_id: "pucker" });
    expect(state.current_step).toBe("起皱：面料类型");

    state = await tool(client, "navigate_session", {
      session_id: state.session_id,
      selected_option_id: "provide_more_info",
      user_input: "嗯……说不好",
    });
    expect(state.current_step).toBe("起皱：面料类型");
    expect(state.response).toContain("没能理解");

    state = await tool(client, "navigate_session", {
      session_id: state.session_id,
      selected_option_id: "provide_more_info",
      user_input: "是雪纺的",
    });
    expect(state.current_step).toBe("轻薄面料起皱");

    state = await tool(client, "navigate_session", { session_id: state.session_id, selected_option_id: "back" });
    expect(state.current_step).toBe("起皱：面料类型");

    state = await tool(client, "navigate_session", { session_id: state.session_id, selected_option_id: "woven" });
    state = await tool(client, "navigate_session", { session_id: state.session_id, selected_option_id: "still" });
    expect(state.current_step).toBe("设备检查");
    expect(state.is_complete).toBe(true);
    expect(state.options).toEqual([]);
    expect(state.response).toContain("机修");

    const error = await toolError(client, "navigate_session", { session_id: state.session_id, selected_option_id: "back" });
    expect(error).toMatch(/already complete.*initiate_session/);

    const view = await call(`/api/consultations/${state.session_id}`, { key: keys.staff });
    expect(view.status).toBe(200);
    const body = await view.json<{
      path: { option: string }[];
      inputs: { text: string; understood: boolean }[];
      trees: { id: string }[];
    }>();
    expect(body.path.map((p) => p.option)).toEqual(["pucker", "thin", "back", "woven", "still"]);
    expect(body.inputs.map((i) => i.understood)).toEqual([false, true]);
    expect(body.trees.map((t) => t.id)).toEqual(["garment-defects"]);
  });

  it("answers an unknown option with a tool error listing the valid ids, and keeps the session", async () => {
    const client = await mcpClient(keys.staff);
    const state = await tool(client, "initiate_session", { user_query: "衣服上有油污" });
    const error = await toolError(client, "navigate_session", { session_id: state.session_id, selected_option_id: "teleport" });
    expect(error).toContain("invalid_option");
    expect(error).toContain("oil, mark");
    const again = await tool(client, "navigate_session", { session_id: state.session_id, selected_option_id: "oil" });
    expect(again.current_step).toBe("机油污渍");
  });

  it("answers an unknown session id with a tool error telling the agent to start anew", async () => {
    const client = await mcpClient(keys.staff);
    const error = await toolError(client, "navigate_session", { session_id: "not-a-session", selected_option_id: "x" });
    expect(error).toMatch(/not_found.*initiate_session/);
  });

  it("keeps one person's session from another, over MCP and REST", async () => {
    const li = await mcpClient(keys.staff);
    const state = await tool(li, "initiate_session", { user_query: "质量问题" });
    const other = await mcpClient(keys.otherBoss);
    const error = await toolError(other, "navigate_session", { session_id: state.session_id, selected_option_id: "pucker" });
    expect(error).toContain("No such consultation session");
    expect((await call(`/api/consultations/${state.session_id}`, { key: keys.staff2 })).status).toBe(404);
  });

  it("rejects an empty question by the schema, naming the field", async () => {
    const client = await mcpClient(keys.staff);
    const error = await toolError(client, "initiate_session", { user_query: "" });
    expect(error).toContain("user_query");
  });
});

describe("/api/consult/trees", () => {
  const tree = (title: string) => JSON.stringify({ id: "demo", title, root: "a", nodes: { a: { response: "A", options: [] } } });

  it("lets an admin upload a tree and everyone list it", async () => {
    const res = await call("/api/consult/trees", {
      method: "PUT",
      key: keys.admin,
      body: JSON.stringify({ file_name: "demo.json", content: tree("Demo") }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "demo", warnings: [] });
    const list = await (await call("/api/consult/trees", { key: keys.staff })).json<{ trees: { id: string }[] }>();
    expect(list.trees.map((t) => t.id)).toContain("demo");
  });

  it("refuses an invalid tree with 422 and every problem, keeping the stored version", async () => {
    const bad = JSON.stringify({ id: "garment-defects", title: "x", root: "missing", nodes: { a: { response: "A" } } });
    const res = await call("/api/consult/trees", {
      method: "PUT",
      key: keys.admin,
      body: JSON.stringify({ file_name: "garment-defects.json", content: bad }),
    });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { code: string; message: string; details: { errors: string[] } } }>();
    expect(body.error.code).toBe("invalid_tree");
    expect(body.error.details.errors).toEqual(["garment-defects.json: root 'missing' is not a node"]);
    const client = await mcpClient(keys.staff);
    const state = await tool(client, "initiate_session", { user_query: "质量问题" });
    expect(state.current_step).toBe("问题类型");
  });

  it("does not let a boss or staff change trees", async () => {
    const body = JSON.stringify({ file_name: "demo.json", content: tree("Demo") });
    expect((await call("/api/consult/trees", { method: "PUT", key: keys.boss, body })).status).toBe(403);
    expect((await call("/api/consult/trees/garment-defects", { method: "DELETE", key: keys.staff })).status).toBe(403);
  });
});
