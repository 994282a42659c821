import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLAIM_LEASE_MS, confirmAction, getAction, holdAction } from "../../src/actions/actions.ts";
import type { Look } from "../../src/actions/pending-action.ts";
import type { ActionService } from "../../src/actions/service.ts";
import { type Approval, type Executor, executorRegistry } from "../../src/actions/types.ts";
import { pieceRecordExecutor } from "../../src/business/executors.ts";
import type { PendingAction } from "../../src/shapes.ts";
import { keys, onTheCard, testServices, users } from "../fixtures.ts";
import { call, callJson, mcpClient } from "../helpers.ts";

// After a crash (issue 46): a confirm that meets another one's claim answers at once with the
// truth, never waits on a claimant that may be gone, and a left-behind claim is settled as soon
// as someone asks. A Worker that dies mid-confirm is simulated by an executor that never returns.

const PIECES = { employee: "张三", process: "领子", quantity: 7, order: "o-jx-1" };
const NEVER = new Promise<never>(() => {});
const owner = { tenantId: users.boss.tenantId, userId: users.boss.userId };
const approval: Approval = { via: "card", credential: null, personName: "王老板", shownText: "t", shownSha256: "x" };

afterEach(() => vi.useRealTimers());

async function prepared(): Promise<PendingAction> {
  const client = await mcpClient(keys.boss);
  const result = await client.callTool({ name: "prepare_piece_record", arguments: PIECES });
  return result.structuredContent as unknown as PendingAction;
}

function stubOf(actionId: string) {
  return env.PENDING_ACTION.get(env.PENDING_ACTION.idFromString(actionId));
}

async function rows(actionId: string): Promise<{ pieces: number; audit: number }> {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE action_id = ?1`).bind(actionId).first<{ n: number }>())?.n ??
    0;
  return { pieces: await count("piece_records"), audit: await count("business_audit") };
}

/** The services with the piece-record executor replaced, as a Worker that runs it differently would have them. */
function servicesWith(execute: Executor["execute"]) {
  const services = testServices();
  const real = pieceRecordExecutor(services.business) as unknown as Executor;
  services.actions = { ...services.actions, executors: executorRegistry([{ ...real, execute }]) };
  return services;
}

/** A confirm whose Worker dies after its D1 batch and before it reports: the write is stored, the claim stays. */
async function diesAfterTheWrite(actionId: string): Promise<void> {
  const services = servicesWith(async (input) => {
    await pieceRecordExecutor(testServices().business).execute(input as never);
    return NEVER;
  });
  void confirmAction({ actions: services.actions, user: users.boss, actionId, confirmation: onTheCard });
  for (let i = 0; i < 100 && (await rows(actionId)).pieces === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(await rows(actionId)).toEqual({ pieces: 1, audit: 1 });
}

/** A confirm whose Worker dies after its claim and before its D1 batch: nothing is stored, the claim stays. */
async function diesBeforeTheWrite(actions: ActionService, actionId: string): Promise<void> {
  const services = servicesWith(() => NEVER);
  void confirmAction({ actions: services.actions, user: users.boss, actionId, confirmation: onTheCard });
  for (let i = 0; i < 100; i++) {
    const view = await getAction({ actions, user: users.boss, actionId });
    if (view.status === "confirming") return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the confirm never claimed the action");
}

/** Restarts the action's object, as a stopped Worker (and `wrangler dev` with it) does. */
async function restart(actionId: string): Promise<void> {
  await runInDurableObject(stubOf(actionId), (_, state) => state.abort("simulated crash")).catch(() => undefined);
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

describe("a confirm that meets another one mid-write", () => {
  it("answers at once, confirmed with its result, when the other wrote and died before reporting; so does a status read", async () => {
    const action = await prepared();
    await diesAfterTheWrite(action.action_id);
    const read = await timed(() => callJson(`/api/actions/${action.action_id}`, { key: keys.boss }));
    expect(read.ms).toBeLessThan(1000);
    expect(read.value.status).toBe(200);
    expect(read.value.body).toMatchObject({ status: "confirmed", result: { quantity: 7, employee: "张三" } });
    const again = await timed(() => callJson(`/api/actions/${action.action_id}/confirm`, { method: "POST", key: keys.boss }));
    expect(again.ms).toBeLessThan(1000);
    expect(again.value.body).toMatchObject({ status: "confirmed", result: { quantity: 7 } });
    expect(await rows(action.action_id)).toEqual({ pieces: 1, audit: 1 });
  });

  it("settles confirmed on the confirm itself, when that is the first to ask", async () => {
    const action = await prepared();
    await diesAfterTheWrite(action.action_id);
    const services = testServices();
    const confirmed = await timed(() =>
      confirmAction({ actions: services.actions, user: users.boss, actionId: action.action_id, confirmation: onTheCard }),
    );
    expect(confirmed.ms).toBeLessThan(1000);
    expect(confirmed.value).toMatchObject({ status: "confirmed", result: { quantity: 7 } });
    expect(await rows(action.action_id)).toEqual({ pieces: 1, audit: 1 });
  });

  it("answers at once 'in progress' with Retry-After when the other has not written, over REST and MCP", async () => {
    const action = await prepared();
    const actions = testServices().actions;
    await diesBeforeTheWrite(actions, action.action_id);
    const confirm = await timed(() => call(`/api/actions/${action.action_id}/confirm`, { method: "POST", key: keys.boss }));
    expect(confirm.ms).toBeLessThan(1000);
    expect(confirm.value.status).toBe(409);
    expect(confirm.value.headers.get("Retry-After")).toBe("1");
    const body = await confirm.value.json<{ error: { code: string; details: { action: { status: string } } } }>();
    expect(body.error).toMatchObject({ code: "action_in_progress", details: { action: { status: "confirming" } } });
    const read = await call(`/api/actions/${action.action_id}`, { key: keys.boss });
    expect(await read.json()).toMatchObject({ status: "confirming" });
    expect(read.headers.get("Retry-After")).toBe("1");
    const client = await mcpClient(keys.boss);
    const tool = await client.callTool({ name: "confirm_action", arguments: { action_id: action.action_id } });
    expect(tool.isError).toBe(true);
    expect((tool.content as { text: string }[])[0]?.text).toMatch(/^action_in_progress: .*ask again in 1 s/);
    expect(tool._meta?.["weft/error"]).toMatchObject({ code: "action_in_progress", status: 409, retryable: true });
    // A cancel is refused the same way: the write may still be on its way.
    const cancel = await callJson(`/api/actions/${action.action_id}/cancel`, { method: "POST", key: keys.boss });
    expect(cancel.status).toBe(409);
    expect(await rows(action.action_id)).toEqual({ pieces: 0, audit: 0 });
  });

  it("lets go of a claim left by a stopped Worker as soon as someone asks, and then confirms once", async () => {
    const action = await prepared();
    const actions = testServices().actions;
    await diesBeforeTheWrite(actions, action.action_id);
    await restart(action.action_id);
    const read = await timed(() => callJson(`/api/actions/${action.action_id}`, { key: keys.boss }));
    expect(read.ms).toBeLessThan(1000);
    expect(read.value.body).toMatchObject({ status: "pending" });
    const confirmed = await callJson(`/api/actions/${action.action_id}/confirm`, { method: "POST", key: keys.boss });
    expect(confirmed.body).toMatchObject({ status: "confirmed", result: { quantity: 7 } });
    expect(await rows(action.action_id)).toEqual({ pieces: 1, audit: 1 });
  });

  it("takes over a claim whose confirm is past its lease, writing once", async () => {
    const action = await prepared();
    const actions = testServices().actions;
    await diesBeforeTheWrite(actions, action.action_id);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + CLAIM_LEASE_MS.recognisable + 1000 });
    const confirmed = await confirmAction({ actions, user: users.boss, actionId: action.action_id, confirmation: onTheCard });
    expect(confirmed).toMatchObject({ status: "confirmed" });
    vi.useRealTimers();
    expect(await rows(action.action_id)).toEqual({ pieces: 1, audit: 1 });
  });

  it("settles a left-behind call elsewhere as failed, saying it may have happened, since it cannot be looked up", async () => {
    const services = testServices();
    const hangs: Executor = { kind: "remote", label: { zh: "远程", en: "Remote" }, execute: () => NEVER };
    services.actions = { ...services.actions, executors: executorRegistry([...services.actions.executors.values(), hangs]) };
    const held = await holdAction({
      actions: services.actions,
      user: users.boss,
      prepared: { kind: "remote", write: {}, summary: "远程调用", preview: [], ambiguities: [], needs: "staff" },
    });
    void confirmAction({ actions: services.actions, user: users.boss, actionId: held.action_id, confirmation: onTheCard });
    const look = async () => (await stubOf(held.action_id).look(owner)) as unknown as { ok: true; value: Look };
    for (let i = 0; i < 100 && (await look()).value.state.status !== "confirming"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await look()).value.state.status).toBe("confirming");
    await restart(held.action_id);
    // Its alarm settles it too, when nobody asks first.
    expect(await runDurableObjectAlarm(stubOf(held.action_id))).toBe(true);
    const view = await getAction({ actions: services.actions, user: users.boss, actionId: held.action_id });
    expect(view.status).toBe("failed");
    expect(view.error?.message).toMatch(/whether it happened is unknown/);
  });

  it("settles confirmed whichever confirm reports a write, even after the action was let go", async () => {
    const action = await prepared();
    const stub = stubOf(action.action_id);
    const claim = (await stub.claim(owner, { leaseMs: 30_000, recognisable: true })) as unknown as {
      ok: true;
      value: { claimId: string };
    };
    // Its confirm writes, then the object restarts before it reports.
    const business = testServices().business;
    const { write } = (await runInDurableObject(stub, async (_, state) => state.storage.get("action"))) as { write: object };
    await pieceRecordExecutor(business).execute({
      actionId: action.action_id,
      owner,
      write: write as never,
      summary: action.summary,
      now: new Date(),
      approval,
    });
    await restart(action.action_id);
    const reported = (await stubOf(action.action_id).report(owner, claim.value.claimId, {
      ok: true,
      result: { late: true },
    })) as unknown as {
      ok: true;
      value: { status: string };
    };
    expect(reported.value.status).toBe("confirmed");
    expect(await rows(action.action_id)).toEqual({ pieces: 1, audit: 1 });
  });
});
