import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ConsultSession } from "../../src/consult/consult-session.ts";
import { navigate, startSession } from "../../src/consult/engine.ts";
import { beginConsultation, continueConsultation, inspectConsultation } from "../../src/consult/sessions.ts";
import { saveTree } from "../../src/consult/tree-store.ts";
import { validateTreeFile } from "../../src/consult/validate-tree.ts";
import { AppError } from "../../src/errors.ts";
import { shippedCatalog } from "./fixtures.ts";

const li = { userId: "u-staff", tenantId: "t-jinxiu", role: "staff" } as const;
const zhang = { userId: "u-staff2", tenantId: "t-jinxiu", role: "staff" } as const;
const chen = { userId: "u-other-boss", tenantId: "t-other", role: "boss" } as const;
const services = (tenantId: string) => ({ db: env.DB, tenantId, sessions: env.CONSULT_SESSION, ttlSeconds: 3600 });
const consult = services("t-jinxiu");
// Each caller reaches sessions through their own workshop's services, as the faces wire them.
const servicesOf = (user: { tenantId: string }) => services(user.tenantId);

const begin = (userQuery: string, user = li) => beginConsultation({ consult, user, userQuery });

function stubOf(sessionId: string): DurableObjectStub<ConsultSession> {
  return env.CONSULT_SESSION.get(env.CONSULT_SESSION.idFromString(sessionId));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("consultation sessions", () => {
  it("keep state between calls in their Durable Object", async () => {
    const state = await begin("质量问题");
    const next = await continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "break" });
    expect(next.current_step).toBe("断线：面线还是底线");
    const view = await inspectConsultation({ consult, user: li, sessionId: state.session_id });
    expect(view.record.path.map((p) => p.option)).toEqual(["break"]);
  });

  it("treat another user's or another workshop's session as unknown", async () => {
    const state = await begin("质量问题");
    for (const user of [zhang, chen]) {
      const error = await failure(
        continueConsultation({ consult: servicesOf(user), user, sessionId: state.session_id, optionId: "break" }),
      );
      expect(error.status).toBe(404);
      expect(error.message).toContain("initiate_session");
    }
    const own = await continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "break" });
    expect(own.current_step).toBe("断线：面线还是底线");
  });

  it("report a malformed or never-created session id as unknown", async () => {
    expect((await failure(continueConsultation({ consult, user: li, sessionId: "nope", optionId: "x" }))).status).toBe(404);
    const unused = env.CONSULT_SESSION.newUniqueId().toString();
    expect((await failure(continueConsultation({ consult, user: li, sessionId: unused, optionId: "x" }))).status).toBe(404);
  });

  it("refuse to move a completed session", async () => {
    const state = await begin("质量问题");
    await continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "end" });
    const error = await failure(continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "pucker" }));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/already complete.*initiate_session/);
  });

  it("expire through their alarm after the idle time, free their storage and say so", async () => {
    const state = await begin("质量问题");
    const stub = stubOf(state.session_id);
    await runInDurableObject(stub, async (_instance, ctx) => {
      const meta = (await ctx.storage.get<{ updatedAt: string }>("meta"))!;
      await ctx.storage.put("meta", { ...meta, updatedAt: new Date(Date.now() - 3601_000).toISOString() });
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const keys = await runInDurableObject(stub, async (_instance, ctx) => [...(await ctx.storage.list()).keys()]);
    expect(keys).toEqual(["expired"]);

    const error = await failure(continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "pucker" }));
    expect(error.status).toBe(410);
    expect(error.message).toMatch(/expired.*initiate_session/);
    // To anyone else it is simply unknown.
    expect(
      (await failure(continueConsultation({ consult: servicesOf(chen), user: chen, sessionId: state.session_id, optionId: "x" })))
        .status,
    ).toBe(404);

    // The tombstone goes too, on the next alarm.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await runInDurableObject(stub, async (_instance, ctx) => (await ctx.storage.list()).size);
    expect(after).toBe(0);
  });

  it("do not expire while still in use: the alarm moves to the new deadline", async () => {
    const state = await begin("质量问题");
    const stub = stubOf(state.session_id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const next = await continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "break" });
    expect(next.is_complete).toBe(false);
    const alarm = await runInDurableObject(stub, (_instance, ctx) => ctx.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + 3500_000);
  });

  it("stay consistent under concurrent navigations", async () => {
    const state = await begin("质量问题");
    const moves = ["break", "top", "back", "thread", "skip", "back"];
    const results = await Promise.allSettled(
      moves.map((optionId) => continueConsultation({ consult, user: li, sessionId: state.session_id, optionId })),
    );
    const { record } = await inspectConsultation({ consult, user: li, sessionId: state.session_id });
    const catalog = await shippedCatalog();
    // Replaying the recorded path from the start must land exactly where the session is: every
    // call applied whole, one after another, or failed whole without a trace.
    let replay = startSession(catalog, "质量问题");
    for (const entry of record.path) {
      const step = navigate(catalog, replay, entry.option, undefined, entry.at);
      if (!step.ok) throw new Error(step.message);
      replay = step.record;
    }
    expect(replay.step).toEqual(record.step);
    expect(replay.history).toEqual(record.history);
    const rejected = results.filter((r) => r.status === "rejected").length;
    expect(results.length - rejected).toBeGreaterThanOrEqual(record.path.length);
  });

  it("keep running on the tree version they started with when the tree changes", async () => {
    const state = await begin("质量问题");
    const original = env.TEST_TREES.find((t) => t.file_name === "garment-defects.yaml")!;
    const edited = await validateTreeFile(
      "garment-defects.yaml",
      original.content.replace("断线", "断线（已改版）").replace(/\n\s*- \{ id: break,[^\n]*/, ""),
    );
    await saveTree({ db: env.DB, tenantId: null, tree: edited.tree!, fileName: "garment-defects.yaml", warnings: [] });

    const next = await continueConsultation({ consult, user: li, sessionId: state.session_id, optionId: "break" });
    expect(next.current_step).toBe("断线：面线还是底线");
    const fresh = await begin("质量问题");
    expect(fresh.options.map((o) => o.id)).not.toContain("break");
  });
});
