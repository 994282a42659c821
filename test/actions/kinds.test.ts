import { describe, expect, it } from "vitest";
import { confirmAction } from "../../src/actions/actions.ts";
import { listAudit } from "../../src/actions/audit.ts";
import { executorRegistry } from "../../src/actions/types.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool } from "../../src/tools/run-tool.ts";
import { dbOf, onTheCard, testContext, testServices, users } from "../fixtures.ts";
import { prepareStampTool } from "./fixtures/prepare-stamp.ts";
import { stampExecutor } from "./fixtures/stamp-executor.ts";

describe("the kinds of pending write", () => {
  it("each have an executor with a label, for every kind a tool prepares", () => {
    const { executors } = testServices().actions;
    const prepared = WEFT_TOOLS.flatMap((tool) => (tool.prepares ? [tool.prepares].flat() : []));
    // external_call is prepared by the registry for external tools that may write; the imports by
    // their routes (POST /api/business/import/*), which read a file no tool takes.
    const kinds = new Set([...prepared, "external_call", "employee_import", "price_import"]);
    expect([...kinds].sort()).toEqual([...executors.keys()].sort());
    for (const kind of kinds) {
      const executor = executors.get(kind);
      expect(executor, kind).toBeDefined();
      expect(executor?.label.zh, kind).toMatch(/\S/);
      expect(executor?.label.en, kind).toMatch(/\S/);
    }
  });

  it("refuse to register two executors for one kind", () => {
    expect(() => executorRegistry([stampExecutor(dbOf("t-jinxiu")), stampExecutor(dbOf("t-jinxiu"))])).toThrow(/stamp/);
  });

  it("grow by an executor and a prepare tool: a new kind is prepared, confirmed once under concurrency, and audited", async () => {
    const services = testServices();
    services.actions = {
      ...services.actions,
      executors: executorRegistry([...services.actions.executors.values(), stampExecutor(dbOf("t-jinxiu"))]),
    };
    const ctx = testContext(users.boss, { services });
    const outcome = await runTool(prepareStampTool, ctx, { document: "合同 7 号" });
    if (!outcome.ok || outcome.kind !== "pending_action") throw new Error(JSON.stringify(outcome));
    const actionId = outcome.action.action_id;
    const confirms = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        confirmAction({ actions: services.actions, user: users.boss, actionId, confirmation: onTheCard }),
      ),
    );
    // Each is answered at once: the result (found in D1 by its action id), or "in progress".
    for (const answer of confirms) {
      if (answer.status === "fulfilled") {
        expect(answer.value).toMatchObject({ status: "confirmed", kind: "stamp", result: { stamped: "合同 7 号" } });
      } else expect(answer.reason).toMatchObject({ code: "action_in_progress" });
    }
    expect(confirms.some((answer) => answer.status === "fulfilled")).toBe(true);
    const { items } = await listAudit({ actions: services.actions, limit: 100 });
    const entries = items.filter((entry) => entry.action_id === actionId);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.summary).toBe(outcome.action.summary);
  });

  it("cannot be held without an executor, so a forgotten registration fails when preparing, not when confirming", async () => {
    const outcome = await runTool(prepareStampTool, testContext(users.boss), { document: "合同 8 号" });
    expect(outcome).toMatchObject({ ok: false, code: "internal" });
  });
});
