import { describe, expect, it } from "vitest";
import { getAction } from "../../src/actions/actions.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool } from "../../src/tools/run-tool.ts";
import type { Confirming } from "../../src/tools/tool.ts";
import { testContext, testServices, users } from "../fixtures.ts";

const prepare = WEFT_TOOLS.find((tool) => tool.name === "prepare_piece_record");

// Prepares a piece record with these confirming rights and reads the action back as its confirm page does.
async function preparedWith(confirming: Confirming) {
  if (!prepare) throw new Error("no prepare_piece_record");
  const outcome = await runTool(prepare, testContext(users.boss, { confirming }), {
    employee: "张三",
    process: "合肩缝",
    quantity: 3,
  });
  if (!outcome.ok || outcome.kind !== "pending_action") throw new Error("not prepared");
  const actions = testServices(users.boss.tenantId).actions;
  return getAction({ actions, user: users.boss, actionId: outcome.action.action_id });
}

describe("where a write was prepared, for its confirm page", () => {
  it("names Weft's chat, an MCP client by name, or an agent by its key", async () => {
    expect((await preparedWith({ by: "weft", credential: null, credentialId: "session" })).prepared_in).toEqual({ via: "chat" });
    expect((await preparedWith({ by: "client", credential: "Claude Desktop", credentialId: "oauth:c-1" })).prepared_in).toEqual({
      via: "client",
      name: "Claude Desktop",
    });
    expect((await preparedWith({ by: "weft", credential: "wk_abcd", credentialId: "key:k-1" })).prepared_in).toEqual({
      via: "agent_key",
      name: "wk_abcd",
    });
  });
});
