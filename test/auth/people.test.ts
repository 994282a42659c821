import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sendChat } from "../chat/chat-api.ts";
import { browserCall } from "../chat/sign-in.ts";
import { assembled, readChunks, textOf } from "../chat/stream.ts";
import { dbOf, keys, logins } from "../fixtures.ts";
import { call, callJson, mcpClient } from "../helpers.ts";
import { mcpCall, tokensFor } from "../oauth/browser.ts";
import { addedPerson, addPerson, freshUsername, login, ownKey, patchPerson, setPassword, tokenOf } from "./people-api.ts";

const GOOD = "缝纫机-lock-42";

describe("adding people", () => {
  it("gives a person added without a password a one-time link that sets it once, then they sign in", async () => {
    const username = freshUsername("lijuan");
    const { person, link, token } = await addedPerson(keys.boss, { name: "新员工", username, role: "staff" });
    expect(person).toMatchObject({ name: "新员工", username, role: "staff", active: true, has_password: false });
    expect(person.password_link_pending).toBe(true);
    expect(link?.url).toMatch(/^http:\/\/weft\.test\/set-password#token=[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(link?.expires_at ?? "") - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const check = await callJson("/api/auth/set-password/check", { method: "POST", body: JSON.stringify({ token }) });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ name: "新员工", username, workshop_name: "锦绣制衣" });
    expect((await login(username, GOOD)).res.status).toBe(401);

    const set = await setPassword(token as string, GOOD);
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ password_set: true, username });
    const again = await setPassword(token as string, "another-good-one-9");
    expect(again.status).toBe(404);
    expect(again.body.error.message).toContain("unknown, used or expired");

    const { res } = await login(username, GOOD);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { name: "新员工", role: "staff", tenant_name: "锦绣制衣" } });
  });

  it("lets a person added with a password sign in at once, with no link", async () => {
    const username = freshUsername("boss");
    const { status, body } = await addPerson(keys.boss, { name: "二老板", username, role: "boss", password: GOOD });
    expect(status).toBe(201);
    expect(body.set_password_link).toBeUndefined();
    expect(body.person).toMatchObject({ has_password: true, password_link_pending: false, role: "boss" });
    expect((await login(username, GOOD)).res.status).toBe(200);
  });

  it("keeps usernames unique in the whole Weft, whatever their case or width", async () => {
    expect((await addPerson(keys.boss, { name: "x", username: "Ａdmin", role: "staff" })).status).toBe(409);
    expect((await addPerson(keys.otherBoss, { name: "x", username: "BOSS", role: "staff" })).status).toBe(409);
    const username = freshUsername("wide");
    const { person } = await addedPerson(keys.boss, {
      name: "宽",
      username: username.toUpperCase(),
      role: "staff",
      password: GOOD,
    });
    expect(person.username).toBe(username);
    const fullWidth = [...username].map((ch) => String.fromCodePoint((ch.codePointAt(0) ?? 0) + 0xfee0)).join("");
    expect((await addPerson(keys.otherBoss, { name: "y", username: fullWidth, role: "staff" })).status).toBe(409);
    expect((await login(fullWidth, GOOD)).res.status).toBe(200);
  });

  it("refuses usernames that are unprintable, spaced or too short, naming the rule", async () => {
    const unprintable = await addPerson(keys.boss, { name: "x", username: "li\u202ejuan", role: "staff" });
    expect(unprintable.status).toBe(422);
    expect(unprintable.body.error.code).toBe("unprintable_name");
    const spaced = await addPerson(keys.boss, { name: "x", username: "li juan", role: "staff" });
    expect(spaced.status).toBe(400);
    expect(spaced.body.error.message).toContain("without spaces");
    expect((await addPerson(keys.boss, { name: "x", username: "l", role: "staff" })).body.error.message).toContain(
      "at least 2 characters",
    );
  });

  it("refuses passwords that are short, among the most common, or the username", async () => {
    const username = freshUsername("pw");
    for (const [password, words, reason] of [
      ["short1", "at least 8 characters", "too_short"],
      ["Password1", "most common passwords", "common"],
      ["woaini1314", "most common passwords", "common"],
      ["ＱＷＥＲＴＹＵＩＯＰ", "most common passwords", "common"],
      [username, "it is the username", "username"],
    ]) {
      const { status, body } = await addPerson(keys.boss, { name: "x", username, role: "staff", password });
      expect(status, password).toBe(400);
      expect(body.error.message).toContain(words);
      expect(body.error.details).toEqual({ field: "password", reason });
    }
    expect(
      (await callJson("/api/people", { key: keys.boss })).body.people.map((p: { username: string }) => p.username),
    ).not.toContain(username);
  });

  it("lets a boss give staff and boss but never admin, and an admin give admin", async () => {
    const refused = await addPerson(keys.boss, { name: "x", username: freshUsername(), role: "admin" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("above your own");
    expect((await addPerson(keys.admin, { name: "x", username: freshUsername(), role: "admin", password: GOOD })).status).toBe(
      201,
    );
    const { person } = await addedPerson(keys.boss, { name: "升职", username: freshUsername(), role: "staff", password: GOOD });
    expect((await patchPerson(keys.boss, person.id, { role: "admin" })).status).toBe(403);
    expect((await patchPerson(keys.boss, person.id, { role: "boss" })).body.person.role).toBe("boss");
  });

  it("never lets anyone change their own role or deactivate themselves, and keeps a boss off the admin", async () => {
    const own = await patchPerson(keys.boss, "u-boss", { role: "staff" });
    expect(own.status).toBe(403);
    expect(own.body.error.message).toContain("their own role");
    expect((await patchPerson(keys.admin, "u-admin", { active: false })).status).toBe(403);
    expect((await patchPerson(keys.boss, "u-boss", { name: "王老板" })).status).toBe(200);
    expect((await patchPerson(keys.boss, "u-admin", { name: "x" })).status).toBe(403);
    expect((await callJson("/api/people/u-admin/reset-password", { method: "POST", key: keys.boss })).status).toBe(403);
    expect((await callJson("/api/people", { key: keys.staff })).status).toBe(403);
  });

  it("answers another workshop's person as unknown, on every route that names one", async () => {
    for (const res of [
      await patchPerson(keys.otherBoss, "u-staff", { name: "x" }),
      await patchPerson(keys.otherBoss, "u-staff", { active: false }),
      await callJson("/api/people/u-staff/reset-password", { method: "POST", key: keys.otherBoss }),
    ]) {
      expect(res.status).toBe(404);
    }
    const listed = (await callJson("/api/people", { key: keys.otherBoss })).body.people.map((p: { id: string }) => p.id);
    expect(listed).not.toContain("u-staff");
    // Another workshop's employee record cannot be linked either.
    const other = await dbOf("t-other")
      .prepare("SELECT id FROM employees WHERE tenant_id = 't-other' LIMIT 1")
      .first<{ id: string }>();
    expect(
      (await addPerson(keys.boss, { name: "x", username: freshUsername(), role: "staff", employee_id: other?.id })).status,
    ).toBe(404);
    expect((await patchPerson(keys.boss, "u-staff2", { employee_id: other?.id })).status).toBe(404);
  });
});

describe("one-time links", () => {
  it("expire after 24 hours, and a newer link replaces the older one", async () => {
    const { person, token } = await addedPerson(keys.boss, { name: "过期", username: freshUsername(), role: "staff" });
    await env.DB.prepare("UPDATE password_links SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ?1")
      .bind(person.id)
      .run();
    expect((await setPassword(token as string, GOOD)).status).toBe(404);
    const first = await callJson(`/api/people/${person.id}/reset-password`, { method: "POST", key: keys.boss });
    const second = await callJson(`/api/people/${person.id}/reset-password`, { method: "POST", key: keys.boss });
    expect(first.status).toBe(200);
    expect((await setPassword(tokenOf(first.body.set_password_link.url), GOOD)).status).toBe(404);
    expect((await setPassword(tokenOf(second.body.set_password_link.url), GOOD)).status).toBe(200);
  });

  it("set one password when two tabs use the same link at once", async () => {
    const { token } = await addedPerson(keys.boss, { name: "并发", username: freshUsername(), role: "staff" });
    const results = await Promise.all([setPassword(token as string, GOOD), setPassword(token as string, "another-good-one-9")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
  });

  it("are counted per address like sign-ins, so a client guessing tokens is stopped", async () => {
    const address = crypto.randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const token = btoa(String(i).padStart(32, "x")).replace(/=+$/, "").padEnd(43, "A").slice(0, 43);
      statuses.push((await setPassword(token, GOOD, address)).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("reset a forgotten password, ending the person's sessions", async () => {
    const username = freshUsername("forgot");
    const { person } = await addedPerson(keys.boss, { name: "忘记", username, role: "staff", password: GOOD });
    const { cookie } = await login(username, GOOD);
    const reset = await callJson(`/api/people/${person.id}/reset-password`, { method: "POST", key: keys.boss });
    expect((await setPassword(tokenOf(reset.body.set_password_link.url), "brand-new-pass-7")).status).toBe(200);
    expect((await browserCall("/api/auth/me", cookie)).status).toBe(401);
    expect((await login(username, "brand-new-pass-7")).res.status).toBe(200);
  });
});

describe("changing one's own password", () => {
  it("ends the person's other sessions and keeps this one", async () => {
    const username = freshUsername("change");
    await addedPerson(keys.boss, { name: "改密码", username, role: "staff", password: GOOD });
    const here = (await login(username, GOOD)).cookie;
    const elsewhere = (await login(username, GOOD)).cookie;
    const key = await ownKey(here);
    const change = (body: Record<string, unknown>, cookie = here) =>
      browserCall("/api/auth/password", cookie, { method: "POST", body: JSON.stringify(body) });

    const wrong = await change({ current_password: "not-it-at-all", new_password: "brand-new-pass-7" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ error: { message: string } }>()).error.message).toContain("current_password");
    expect((await change({ current_password: GOOD, new_password: "iloveyou" })).status).toBe(400);
    const ok = await change({ current_password: GOOD, new_password: "brand-new-pass-7" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ changed: true, ended_sessions: 1 });
    expect((await browserCall("/api/auth/me", here)).status).toBe(200);
    expect((await browserCall("/api/auth/me", elsewhere)).status).toBe(401);
    expect((await login(username, GOOD)).res.status).toBe(401);
    expect((await login(username, "brand-new-pass-7")).res.status).toBe(200);
    // An API key is not a session: it keeps working, and may not change the password.
    expect((await call("/api/keys", { key })).status).toBe(200);
    const withKey = await callJson("/api/auth/password", {
      key,
      method: "POST",
      body: JSON.stringify({ current_password: "brand-new-pass-7", new_password: "another-good-one-9" }),
    });
    expect(withKey.status).toBe(403);
  });
});

describe("deactivating a person", () => {
  it("ends their sessions, keys and connected apps at once, keeps their records, and can be undone", async () => {
    const { cookie } = await login(logins.staff2.username, logins.staff2.password);
    const key = await ownKey(cookie);
    const { tokens } = await tokensFor(logins.staff2);
    expect((await mcpCall(tokens.access_token, "tools/list")).status).toBe(200);
    expect((await call("/api/keys", { key })).status).toBe(200);
    const records = "SELECT COUNT(*) AS n FROM piece_records WHERE employee_id = 'e-jx-zhangmin'";
    const before = (await dbOf("t-jinxiu").prepare(records).first<{ n: number }>())?.n;

    const off = await patchPerson(keys.boss, "u-staff2", { active: false });
    expect(off.status).toBe(200);
    expect(off.body.person).toMatchObject({ active: false, employee_id: "e-jx-zhangmin", employee_name: "张敏" });
    expect((await browserCall("/api/auth/me", cookie)).status).toBe(401);
    expect((await call("/api/keys", { key })).status).toBe(401);
    // Refused: 401, or 429 once the development keys' shared prefix (dev-) has failed ten times in the run.
    expect([401, 429]).toContain((await call("/api/keys", { key: keys.staff2 })).status);
    expect((await mcpCall(tokens.access_token, "tools/list")).status).toBe(401);
    const refused = await login(logins.staff2.username, logins.staff2.password);
    expect(refused.res.status).toBe(403);
    expect((await refused.res.json<{ error: { message: string } }>()).error.message).toContain("deactivated");
    expect((await login(logins.staff2.username, "not-the-password")).res.status).toBe(401);
    expect((await dbOf("t-jinxiu").prepare(records).first<{ n: number }>())?.n).toBe(before);
    expect((await callJson("/api/people/u-staff2/reset-password", { method: "POST", key: keys.boss })).status).toBe(409);

    const on = await patchPerson(keys.boss, "u-staff2", { active: true });
    expect(on.body.person.active).toBe(true);
    const back = await login(logins.staff2.username, logins.staff2.password);
    expect(back.res.status).toBe(200);
    // What ended stays ended: a key or app comes back only by making it again.
    expect((await call("/api/keys", { key })).status).toBe(401);
    expect((await mcpCall(tokens.access_token, "tools/list")).status).toBe(401);
  });
});

describe("people and employee records", () => {
  it("links a person to one employee record, one person per record, and unlinks them", async () => {
    const { person } = await addedPerson(keys.boss, {
      name: "张三",
      username: freshUsername("zhangsan"),
      role: "staff",
      password: GOOD,
      employee_id: "e-jx-zhangsan",
    });
    expect(person).toMatchObject({ employee_id: "e-jx-zhangsan", employee_name: "张三" });
    const taken = await addPerson(keys.boss, {
      name: "又一个",
      username: freshUsername(),
      role: "staff",
      employee_id: "e-jx-zhangsan",
    });
    expect(taken.status).toBe(409);
    expect((await patchPerson(keys.boss, "u-staff", { employee_id: "e-jx-zhangsan" })).status).toBe(409);
    const { body } = await callJson("/api/people", { key: keys.boss });
    expect(body.employees.find((e: { id: string }) => e.id === "e-jx-zhangsan")).toMatchObject({ person_id: person.id });
    expect(body.people.find((p: { id: string }) => p.id === "u-staff")).toMatchObject({ employee_name: "李娟" });
    expect((await patchPerson(keys.boss, person.id, { employee_id: null })).body.person.employee_id).toBeNull();
    expect((await patchPerson(keys.boss, "u-staff", { employee_id: "e-jx-zhangsan" })).body.person.employee_id).toBe(
      "e-jx-zhangsan",
    );
    const audit = (await callJson("/api/audit?limit=5", { key: keys.boss })).body.entries;
    expect(audit[0]).toMatchObject({ kind: "employee_link", confirmed_via: "settings", user_name: "王老板" });
    expect(audit[0].summary).toContain("张三");
  });

  it("makes a new employee record with the person's name and the next number, audited", async () => {
    const username = freshUsername("sunhong");
    const { person } = await addedPerson(keys.boss, {
      name: "孙红",
      username,
      role: "staff",
      password: GOOD,
      new_employee: true,
    });
    const employee = await dbOf("t-jinxiu")
      .prepare("SELECT name, employee_no, person_id AS user_id FROM employees WHERE id = ?1")
      .bind(person.employee_id)
      .first();
    expect(employee).toEqual({ name: "孙红", employee_no: "008", user_id: person.id });
    const audit = (await callJson("/api/audit?limit=1", { key: keys.boss })).body.entries[0];
    expect(audit).toMatchObject({ kind: "employee", summary: "新建员工档案：孙红（工号 008）", confirmed_via: "settings" });
    expect((await patchPerson(keys.boss, person.id, { new_employee: true })).status).toBe(409);
    // Her own payroll, empty so far, is said as hers.
    const chunks = await readChunks(
      await sendChat((await login(username, GOOD)).cookie, crypto.randomUUID(), "我这个月的工资是多少"),
    );
    expect(textOf(await assembled(chunks))).toMatch(
      /^你，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：没有计件记录，也没有补贴或扣款，实发 0\.00 元。/,
    );
  });

  it("scopes staff to their linked record, and tells staff without one to ask their boss", async () => {
    const username = freshUsername("unlinked");
    const { person } = await addedPerson(keys.boss, { name: "未关联", username, role: "staff", password: GOOD });
    const key = await ownKey((await login(username, GOOD)).cookie);
    const client = await mcpClient(key);
    const unlinked = await client.callTool({ name: "query_piece_records", arguments: {} });
    expect(unlinked.isError).toBe(true);
    expect(JSON.stringify(unlinked.content)).toContain("not linked to an employee yet");
    expect(JSON.stringify(unlinked.content)).toContain("Ask your boss");

    // The web chat says it in the person's words, rather than answering that they have no records.
    const chunks = await readChunks(
      await sendChat((await login(username, GOOD)).cookie, crypto.randomUUID(), "我这个月做了多少件"),
    );
    expect(textOf(await assembled(chunks))).toContain("你的账号还没有关联员工档案");

    expect((await patchPerson(keys.boss, person.id, { employee_id: "e-jx-wangfang" })).status).toBe(200);
    const linked = await client.callTool({ name: "query_piece_records", arguments: { date_from: "2000-01-01" } });
    expect(linked.isError, JSON.stringify(linked.content)).toBeFalsy();
    const rows = (linked.structuredContent as { records: { employee: { name: string } }[] }).records;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.employee.name))).toEqual(new Set(["王芳"]));
  });
});
