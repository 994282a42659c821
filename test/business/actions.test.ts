import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { BOSS, fails, OTHER_BOSS, ok, STAFF, STAFF2, shanghaiToday, tool } from "./run.ts";

interface Pending {
  action_id: string;
  summary: string;
  preview: { label: string; value: string }[];
  ambiguities: { field: string; candidates: { id: string; label: string }[] }[];
  expires_at: string;
}
interface View {
  action_id: string;
  status: string;
  result?: { piece_record_id?: string; order_no?: string; quantity?: number };
  tell_user: string;
}

async function rows(actionId: string): Promise<number> {
  const row = await dbOf("t-jinxiu")
    .prepare("SELECT COUNT(*) AS n FROM piece_records WHERE action_id = ?1")
    .bind(actionId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function auditRows(actionId: string): Promise<number> {
  const row = await dbOf("t-jinxiu")
    .prepare("SELECT COUNT(*) AS n FROM business_audit WHERE action_id = ?1")
    .bind(actionId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

const collarFor张三 = { employee: "张三", process: "领子", quantity: 50 };
// Later tests add open orders of the same style, so they name the order.

describe("prepare_piece_record and confirm_action", () => {
  it("previews 50 pieces of 领子 for 张三 without writing, then writes one row and its audit entry on confirm", async () => {
    const before = await dbOf("t-jinxiu").prepare("SELECT COUNT(*) AS n FROM piece_records").first<{ n: number }>();
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    expect(action.ambiguities).toEqual([]);
    const preview = Object.fromEntries(action.preview.map((f) => [f.label, f.value]));
    expect(preview).toMatchObject({
      员工: "张三 (工号 001)",
      工序: "上领子 (A01 男式衬衫)",
      数量: "50 件",
      单价: "0.80 元/件",
      金额: "40.00 元",
    });
    expect(preview.订单).toContain("优衣美");
    expect(Date.parse(action.expires_at) - Date.now()).toBeGreaterThan(590_000);
    const after = await dbOf("t-jinxiu").prepare("SELECT COUNT(*) AS n FROM piece_records").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);

    const confirmed = await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    expect(confirmed.status).toBe("confirmed");
    const row = await dbOf("t-jinxiu")
      .prepare("SELECT * FROM piece_records WHERE action_id = ?1")
      .bind(action.action_id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      tenant_id: "t-jinxiu",
      employee_id: "e-jx-zhangsan",
      order_id: "o-jx-1",
      quantity: 50,
      unit_price_cents: 80,
      work_date: shanghaiToday(),
      entered_by: "u-boss",
    });
    const audit = await dbOf("t-jinxiu")
      .prepare("SELECT * FROM business_audit WHERE action_id = ?1")
      .bind(action.action_id)
      .first<Record<string, unknown>>();
    expect(audit).toMatchObject({ user_id: "u-boss", kind: "piece_record", entity_id: row?.id });
    expect(JSON.parse(String(audit?.values_json))).toMatchObject({
      quantity: 50,
      unit_price_cents: 80,
      employee_id: "e-jx-zhangsan",
    });
  });

  it("answers a second confirm with the first result and no second row", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    const first = await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    const second = await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    // The same write, said to have been confirmed already rather than done again.
    expect({ ...second, tell_user: "" }).toEqual({ ...first, tell_user: "" });
    expect(first.tell_user).toMatch(/^已确认并写入：/);
    expect(second.tell_user).toMatch(/^这项写入之前已经确认过了，没有再写一次：/);
    expect(await rows(action.action_id)).toBe(1);
  });

  it("writes exactly one row when 20 confirms of one action arrive at once, each told the truth at once", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => tool(BOSS, "confirm_action", { action_id: action.action_id })),
    );
    // Each confirm is answered without waiting on another: the write's result, or "in progress" (retry in 1 s).
    const confirmed = outcomes.flatMap((o) => (o.ok && o.kind === "result" ? [o.structured as unknown as View] : []));
    const inProgress = outcomes.filter((o) => !o.ok && o.code === "action_in_progress");
    expect(confirmed.length + inProgress.length).toBe(20);
    expect(confirmed.length).toBeGreaterThan(0);
    for (const refused of inProgress) expect(refused).toMatchObject({ retryable: true, details: { retry_after_seconds: 1 } });
    expect(new Set(confirmed.map((o) => o.result?.piece_record_id)).size).toBe(1);
    expect(confirmed.every((o) => o.status === "confirmed")).toBe(true);
    expect(await ok<View>(BOSS, "confirm_action", { action_id: action.action_id })).toMatchObject({ status: "confirmed" });
    expect(await rows(action.action_id)).toBe(1);
    expect(await auditRows(action.action_id)).toBe(1);
  });

  it("asks which order when several open orders take the process, and accepts the choice in a second prepare", async () => {
    const first = await ok<Pending>(BOSS, "prepare_piece_record", { employee: "李娟", process: "拼接", quantity: 30 });
    const order = first.ambiguities.find((a) => a.field === "order");
    expect(order?.candidates.map((c) => c.id).sort()).toEqual(["o-jx-2", "o-jx-4"]);
    const refused = await fails(BOSS, "confirm_action", { action_id: first.action_id });
    expect(refused.code).toBe("action_not_confirmable");
    expect(await rows(first.action_id)).toBe(0);

    const second = await ok<Pending>(BOSS, "prepare_piece_record", {
      employee: "李娟",
      process: "拼接",
      quantity: 30,
      order: "o-jx-4",
    });
    expect(second.ambiguities).toEqual([]);
    await ok<View>(BOSS, "confirm_action", { action_id: second.action_id });
    const status = await dbOf("t-jinxiu").prepare("SELECT status FROM orders WHERE id = 'o-jx-4'").first<{ status: string }>();
    expect(status?.status).toBe("in_production");
  });

  it("asks which employee when a name is ambiguous", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", { employee: "张", process: "领子", quantity: 5 });
    expect(
      action.ambiguities
        .find((a) => a.field === "employee")
        ?.candidates.map((c) => c.id)
        .sort(),
    ).toEqual(["e-jx-zhangmin", "e-jx-zhangsan"]);
  });

  it("expires an unconfirmed action by its alarm; confirming it then writes nothing", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    const stub = env.PENDING_ACTION.get(env.PENDING_ACTION.idFromString(action.action_id));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const refused = await fails(BOSS, "confirm_action", { action_id: action.action_id });
    expect(refused.code).toBe("action_expired");
    expect(await rows(action.action_id)).toBe(0);
    const view = await call(`/api/actions/${action.action_id}`, { key: keys.boss });
    expect((await view.json<View>()).status).toBe("expired");
  });

  it("cancels: nothing is written, a later confirm is refused, a second cancel is harmless", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    expect((await ok<View>(BOSS, "cancel_action", { action_id: action.action_id })).status).toBe("cancelled");
    expect((await ok<View>(BOSS, "cancel_action", { action_id: action.action_id })).status).toBe("cancelled");
    expect((await fails(BOSS, "confirm_action", { action_id: action.action_id })).code).toBe("action_not_confirmable");
    expect(await rows(action.action_id)).toBe(0);
  });

  it("refuses to cancel a confirmed action", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    expect((await fails(BOSS, "cancel_action", { action_id: action.action_id })).code).toBe("action_not_confirmable");
    expect(await rows(action.action_id)).toBe(1);
  });

  it("leaves the action confirmable and no partial rows when the D1 write fails", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", collarFor张三);
    // The audit insert is the batch's last statement: failing it must undo the piece record too.
    await dbOf("t-jinxiu")
      .prepare(
        "CREATE TRIGGER fail_audit BEFORE INSERT ON business_audit BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END",
      )
      .run();
    try {
      const failed = await fails(BOSS, "confirm_action", { action_id: action.action_id });
      expect(failed.code).toBe("unavailable");
      expect(failed.retryable).toBe(true);
      expect(await rows(action.action_id)).toBe(0);
      expect(await auditRows(action.action_id)).toBe(0);
    } finally {
      await dbOf("t-jinxiu").prepare("DROP TRIGGER fail_audit").run();
    }
    const retried = await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    expect(retried.status).toBe("confirmed");
    expect(await rows(action.action_id)).toBe(1);
    expect(await auditRows(action.action_id)).toBe(1);
  });

  it("re-checks at confirm: a price changed or an order closed since prepare is refused with the reason", async () => {
    const priced = await ok<Pending>(BOSS, "prepare_piece_record", { employee: "王芳", process: "锁眼", quantity: 10 });
    await dbOf("t-jinxiu")
      .prepare("UPDATE processes SET unit_price_cents = 25 WHERE tenant_id = 't-jinxiu' AND name = '锁眼'")
      .run();
    const refused = await fails(BOSS, "confirm_action", { action_id: priced.action_id });
    expect(refused.code).toBe("action_stale");
    expect(refused.message).toContain("0.20");
    expect(refused.message).toContain("0.25");
    expect(await rows(priced.action_id)).toBe(0);

    const open = await ok<Pending>(BOSS, "prepare_piece_record", {
      employee: "赵丽",
      process: "上拉链",
      quantity: 10,
      order: "o-jx-2",
    });
    await dbOf("t-jinxiu").prepare("UPDATE orders SET status = 'completed' WHERE id = 'o-jx-2'").run();
    const closed = await fails(BOSS, "confirm_action", { action_id: open.action_id });
    expect(closed.code).toBe("action_stale");
    expect(closed.message).toContain("已完成");
    expect(await rows(open.action_id)).toBe(0);
    // The refusal is final: confirming again gives the same answer.
    expect((await fails(BOSS, "confirm_action", { action_id: open.action_id })).code).toBe("action_stale");
  });
});

describe("who may prepare and confirm what", () => {
  it("lets staff record their own pieces and refuses them anyone else's", async () => {
    const own = await ok<Pending>(STAFF, "prepare_piece_record", { process: "上袖子", quantity: 20 });
    expect(own.preview.find((f) => f.label === "员工")?.value).toContain("李娟");
    await ok<View>(STAFF, "confirm_action", { action_id: own.action_id });
    const row = await dbOf("t-jinxiu")
      .prepare("SELECT employee_id, entered_by FROM piece_records WHERE action_id = ?1")
      .bind(own.action_id)
      .first();
    expect(row).toEqual({ employee_id: "e-jx-lijuan", entered_by: "u-staff" });
    expect((await fails(STAFF, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 5 })).code).toBe(
      "forbidden",
    );
  });

  it("lets only the action's owner see, confirm or cancel it", async () => {
    const action = await ok<Pending>(STAFF, "prepare_piece_record", { process: "上袖子", quantity: 3 });
    for (const user of [STAFF2, BOSS, OTHER_BOSS]) {
      expect((await fails(user, "confirm_action", { action_id: action.action_id })).code).toBe("action_unknown");
      expect((await fails(user, "cancel_action", { action_id: action.action_id })).code).toBe("action_unknown");
    }
    for (const key of [keys.staff2, keys.otherBoss]) {
      expect((await call(`/api/actions/${action.action_id}`, { key })).status).toBe(404);
      expect((await call(`/api/actions/${action.action_id}/confirm`, { key, method: "POST" })).status).toBe(404);
    }
    expect(await rows(action.action_id)).toBe(0);
    expect((await ok<View>(STAFF, "confirm_action", { action_id: action.action_id })).status).toBe("confirmed");
  });

  it("answers unknown and malformed action ids with a clear 404", async () => {
    const unknown = await fails(BOSS, "confirm_action", { action_id: "0".repeat(64) });
    expect(unknown.code).toBe("action_unknown");
    const garbage = await call("/api/actions/__proto__/confirm", { key: keys.boss, method: "POST" });
    expect(garbage.status).toBe(404);
    expect((await garbage.json<{ error: { code: string } }>()).error.code).toBe("action_unknown");
  });

  it("refuses what the guide forbids: closed orders, bad quantities, future dates, departed employees", async () => {
    expect(
      (await fails(BOSS, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 5, order: "o-jx-3" })).code,
    ).toBe("unprocessable");
    expect((await fails(BOSS, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 0 })).code).toBe(
      "invalid_input",
    );
    expect((await fails(BOSS, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 10_001 })).code).toBe(
      "invalid_input",
    );
    expect((await fails(BOSS, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 1.5 })).code).toBe(
      "invalid_input",
    );
    expect(
      (await fails(BOSS, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 5, work_date: "2999-01-01" }))
        .code,
    ).toBe("invalid_input");
    expect((await fails(BOSS, "prepare_piece_record", { employee: "陈静", process: "上袖子", quantity: 5 })).code).toBe(
      "unprocessable",
    );
    expect((await fails(BOSS, "prepare_piece_record", { process: "领子", quantity: 5 })).code).toBe("invalid_input");
    expect((await fails(BOSS, "prepare_piece_record", { employee: "张三", process: "领子", quantity: 5, extra: 1 })).code).toBe(
      "invalid_input",
    );
  });

  it("never resolves another workshop's employee, process or order when preparing", async () => {
    expect(
      (await fails(OTHER_BOSS, "prepare_piece_record", { employee: "e-jx-zhangsan", process: "上腰头", quantity: 5 })).code,
    ).toBe("unknown_name");
    expect((await fails(OTHER_BOSS, "prepare_piece_record", { employee: "张三", process: "合肩缝", quantity: 5 })).code).toBe(
      "unknown_name",
    );
    expect(
      (await fails(OTHER_BOSS, "prepare_piece_record", { employee: "张三", process: "上腰头", quantity: 5, order: "o-jx-1" }))
        .code,
    ).toBe("unknown_name");
  });
});

describe("prepare_order", () => {
  it("creates an order with the next number of the year on confirm, boss only", async () => {
    const due = shanghaiToday();
    const action = await ok<Pending>(BOSS, "prepare_order", {
      customer: "江南布衣",
      style: "A01",
      quantity: 800,
      due_date: due,
      note: "蓝色",
    });
    expect(action.preview.find((f) => f.label === "款式")?.value).toBe("A01 男式衬衫");
    const confirmed = await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    const year = due.slice(0, 4);
    const max = await dbOf("t-jinxiu")
      .prepare("SELECT MAX(order_no) AS n FROM orders WHERE tenant_id = 't-jinxiu' AND order_no LIKE ?1 AND action_id IS NOT ?2")
      .bind(`${year}-%`, action.action_id)
      .first<{ n: string }>();
    expect(confirmed.result?.order_no).toBe(`${year}-${String(Number(max?.n.slice(5)) + 1).padStart(3, "0")}`);
    const audit = await dbOf("t-jinxiu")
      .prepare("SELECT kind FROM business_audit WHERE action_id = ?1")
      .bind(action.action_id)
      .first();
    expect(audit).toEqual({ kind: "order" });

    expect((await fails(STAFF, "prepare_order", { customer: "x", style: "A01", quantity: 1, due_date: due })).code).toBe(
      "forbidden",
    );
    expect((await fails(BOSS, "prepare_order", { customer: "x", style: "A01", quantity: 1, due_date: "2000-01-01" })).code).toBe(
      "invalid_input",
    );
    expect((await fails(OTHER_BOSS, "prepare_order", { customer: "x", style: "A01", quantity: 1, due_date: due })).code).toBe(
      "unknown_name",
    );
  });

  it("gives two orders confirmed at once two different numbers", async () => {
    const due = shanghaiToday();
    const a = await ok<Pending>(BOSS, "prepare_order", { customer: "甲", style: "B02", quantity: 10, due_date: due });
    const b = await ok<Pending>(BOSS, "prepare_order", { customer: "乙", style: "B02", quantity: 10, due_date: due });
    const [ra, rb] = await Promise.all([
      ok<View>(BOSS, "confirm_action", { action_id: a.action_id }),
      ok<View>(BOSS, "confirm_action", { action_id: b.action_id }),
    ]);
    expect(ra.result?.order_no).not.toBe(rb.result?.order_no);
  });
});

describe("the action and audit routes", () => {
  it("shows, confirms and cancels an action for its owner as JSON", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", { ...collarFor张三, order: "o-jx-1" });
    const shown = await call(`/api/actions/${action.action_id}`, { key: keys.boss });
    expect(shown.status).toBe(200);
    const body = await shown.json<View & { preview: unknown[]; expires_at: string }>();
    expect(body).toMatchObject({ action_id: action.action_id, status: "pending", expires_at: action.expires_at });
    expect(body.preview).toEqual(action.preview);
    const confirmed = await call(`/api/actions/${action.action_id}/confirm`, { key: keys.boss, method: "POST" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json<View>()).toMatchObject({ status: "confirmed", result: { quantity: 50 } });

    const other = await ok<Pending>(BOSS, "prepare_piece_record", { ...collarFor张三, order: "o-jx-1" });
    const cancelled = await call(`/api/actions/${other.action_id}/cancel`, { key: keys.boss, method: "POST" });
    expect(await cancelled.json<View>()).toMatchObject({ status: "cancelled" });
    const late = await call(`/api/actions/${other.action_id}/confirm`, { key: keys.boss, method: "POST" });
    expect(late.status).toBe(409);
    expect(await rows(other.action_id)).toBe(0);
    expect((await call(`/api/actions/${other.action_id}`)).status).toBe(401);
  });

  it("pages the audit log for a boss only, never another workshop's", async () => {
    const action = await ok<Pending>(BOSS, "prepare_piece_record", { ...collarFor张三, order: "o-jx-1" });
    await ok<View>(BOSS, "confirm_action", { action_id: action.action_id });
    const first = await (await call("/api/audit?limit=1", { key: keys.boss })).json<{
      entries: { action_id: string; user_name: string; values: { quantity: number }; summary: string }[];
      next_cursor: string | null;
    }>();
    expect(first.entries).toHaveLength(1);
    expect(first.entries[0]).toMatchObject({ action_id: action.action_id, user_name: "王老板", values: { quantity: 50 } });
    // What was written, in the words the person confirmed: the action's own summary.
    expect(first.entries[0]?.summary).toBe(action.summary);
    expect(first.next_cursor).toBeTruthy();
    const next = await call(`/api/audit?limit=1&cursor=${first.next_cursor}`, { key: keys.boss });
    expect(next.status).toBe(200);
    expect((await call("/api/audit", { key: keys.staff })).status).toBe(403);
    expect((await call("/api/audit?limit=0", { key: keys.boss })).status).toBe(400);
    expect((await call("/api/audit?cursor=xyz", { key: keys.boss })).status).toBe(400);
    const other = await (await call("/api/audit", { key: keys.otherBoss })).json<{ entries: { action_id: string }[] }>();
    expect(other.entries.map((e) => e.action_id)).not.toContain(action.action_id);
  });
});

describe("tool outcome shape", () => {
  it("returns a pending action from prepare tools", async () => {
    const outcome = await tool(BOSS, "prepare_piece_record", { ...collarFor张三, order: "o-jx-1" });
    expect(outcome.ok && outcome.kind).toBe("pending_action");
  });
});
