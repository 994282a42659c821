// The MCP Inspector's CLI (`mcp-inspector --cli`) against `npm run dev`: it lists Weft's tools,
// resources and prompts as any person trying Weft with the Inspector would see them.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const run = promisify(execFile);
const INSPECTOR = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "mcp-inspector");

async function inspect(method: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    INSPECTOR,
    ["--cli", `${baseUrl}/mcp`, "--transport", "http", "--header", "Authorization: Bearer dev-staff-key", "--method", method],
    { timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the MCP Inspector's CLI", () => {
  it("lists the tools a staff key may use", async () => {
    const { tools } = (await inspect("tools/list")) as { tools: { name: string }[] };
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["knowledge_search", "query_piece_records", "prepare_piece_record"]));
    expect(names).not.toContain("prepare_order");
  });

  it("lists the workshop's documents as resources", async () => {
    const { resources } = (await inspect("resources/list")) as { resources: { uri: string; mimeType?: string }[] };
    expect(resources.length).toBeGreaterThan(0);
    expect(resources[0]?.uri).toMatch(/^weft:\/\/knowledge-bases\/[^/]+\/documents\/[^/]+$/);
  });

  it("lists the consultations and task recipes as prompts", async () => {
    const { prompts } = (await inspect("prompts/list")) as { prompts: { name: string }[] };
    const names = prompts.map((prompt) => prompt.name);
    expect(names.some((name) => name.startsWith("consult."))).toBe(true);
    expect(names).toContain("task.record-pieces");
  });
});
