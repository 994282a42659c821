import { env } from "cloudflare:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/auth/api-keys.ts";
import { LEAST_ROLE } from "../../src/permissions.ts";
import { DEFAULT_SYNONYMS } from "../../src/search/default-synonyms.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import type { Role } from "../../src/user-context.ts";
import { dbOf, keys as devKeys } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";

/**
 * Every route and every tool, for each role in the workshop that owns the resources touched
 * (jinxiu) and in another workshop: one row each, six cells. A cell is the HTTP status, or for
 * tools what the caller gets. Any change to a role rule changes this table.
 */

interface Caller {
  label: string;
  key: string;
  role: Role;
  own: boolean;
}

const CALLERS: Caller[] = [
  { label: "own admin", key: devKeys.admin, role: "admin", own: true },
  { label: "own boss", key: devKeys.boss, role: "boss", own: true },
  { label: "own staff", key: devKeys.staff, role: "staff", own: true },
  { label: "other admin", key: "matrix-other-admin-key", role: "admin", own: false },
  { label: "other boss", key: devKeys.otherBoss, role: "boss", own: false },
  { label: "other staff", key: "matrix-other-staff-key", role: "staff", own: false },
];

interface Fixtures {
  kbId: string;
  docId: string;
  sessionId: string;
  staffActionId: string;
  auditId: string;
}
let fx: Fixtures;

const json = (method: string, body: unknown) => ({ method, body: JSON.stringify(body) });

async function createKb(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", { key: devKeys.boss, ...json("POST", { name }) });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

async function uploadDoc(kbId: string, filename: string): Promise<string> {
  const res = await call(`/api/knowledge-bases/${kbId}/documents`, {
    key: devKeys.boss,
    ...json("POST", { filename, content: `# 跳针\n\n缝纫机跳针时先换针，再检查针与旋梭的间隙。${filename}` }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ document: { id: string } }>()).document.id;
}

async function putTree(id: string): Promise<void> {
  const content = JSON.stringify({ id, title: id, root: "a", nodes: { a: { response: "A", options: [] } } });
  const res = await call("/api/consult/trees", { key: devKeys.admin, ...json("PUT", { file_name: `${id}.json`, content }) });
  expect(res.status).toBe(200);
}

async function staff2Key(): Promise<string> {
  const res = await call("/api/keys", { key: devKeys.staff2, ...json("POST", { name: "matrix" }) });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

let faqKbId: Promise<string> | undefined;

/** A jinxiu FAQ base, created on first use. */
function faqKb(): Promise<string> {
  faqKbId ??= call("/api/knowledge-bases", { key: devKeys.boss, ...json("POST", { name: "matrix-faq", type: "faq" }) }).then(
    (res) => res.json<{ id: string }>().then((kb) => kb.id),
  );
  return faqKbId;
}

/** A fresh pending piece record of 张三, prepared by jinxiu's boss. */
async function bossAction(): Promise<string> {
  const result = await (await mcpClient(devKeys.boss)).callTool({
    name: "prepare_piece_record",
    arguments: { employee: "张三", process: "领子", quantity: 1, order: "o-jx-1" },
  });
  return (result.structuredContent as { action_id: string }).action_id;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/** A fresh staff member of jinxiu, added by its boss. */
async function jinxiuPerson(): Promise<string> {
  const res = await call("/api/people", {
    key: devKeys.boss,
    ...json("POST", { name: "矩阵", username: unique("matrix-person"), role: "staff", password: "matrix-pass-1" }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ person: { id: string } }>()).person.id;
}

/** A token of the right shape that no link has (a fresh one each time: each link's uses are counted). */
const unknownToken = () => unique("t").padEnd(43, "A");

type Cell = number | string;
interface Row {
  name: string;
  /** own admin, own boss, own staff, other admin, other boss, other staff */
  expected: [Cell, Cell, Cell, Cell, Cell, Cell];
  run(caller: Caller): Promise<Cell>;
}

const status =
  (path: string, init: RequestInit = {}) =>
  async (caller: Caller) =>
    (await call(path, { ...init, key: caller.key })).status;

/** A request refused for want of the right credential: 401, or 429 once its key's prefix has failed too often. */
const refused =
  (path: string, init: RequestInit = {}) =>
  async (caller: Caller) => {
    const code = (await call(path, { ...init, key: caller.key })).status;
    return code === 401 || code === 429 ? "refused" : code;
  };
const REFUSED_EVERYWHERE: Row["expected"] = ["refused", "refused", "refused", "refused", "refused", "refused"];

const ROUTES: Row[] = [
  { name: "GET /healthz", expected: [200, 200, 200, 200, 200, 200], run: async () => (await call("/healthz")).status },
  { name: "GET /api/keys", expected: [200, 200, 200, 200, 200, 200], run: status("/api/keys") },
  {
    name: "POST /api/keys for oneself",
    expected: [201, 201, 201, 201, 201, 201],
    run: (c) => status("/api/keys", json("POST", { name: "self" }))(c),
  },
  {
    name: "POST /api/keys for a jinxiu staff member (another person)",
    expected: [201, 403, 403, 404, 404, 404],
    run: (c) => status("/api/keys", json("POST", { name: "other", user_id: "u-staff2" }))(c),
  },
  {
    name: "POST /api/keys for jinxiu's admin",
    expected: [201, 403, 403, 404, 404, 404],
    run: (c) => status("/api/keys", json("POST", { name: "up", user_id: "u-admin" }))(c),
  },
  {
    name: "DELETE /api/keys/:id of a jinxiu staff member's key",
    expected: [200, 404, 404, 404, 404, 404],
    run: async (c) => status(`/api/keys/${await staff2Key()}`, { method: "DELETE" })(c),
  },
  {
    // Who may confirm a key's writes is set from a signed-in browser only (test/actions/confirmation.test.ts).
    name: "PATCH /api/keys/:id confirm_by of a jinxiu staff member's key, with an API key",
    expected: [403, 403, 403, 403, 403, 403],
    run: async (c) => status(`/api/keys/${await staff2Key()}`, json("PATCH", { confirm_by: "agent" }))(c),
  },
  { name: "GET /api/knowledge-bases", expected: [200, 200, 200, 200, 200, 200], run: status("/api/knowledge-bases") },
  {
    name: "POST /api/knowledge-bases",
    expected: [201, 201, 403, 201, 201, 403],
    run: (c) => status("/api/knowledge-bases", json("POST", { name: unique("kb") }))(c),
  },
  {
    name: "GET /api/knowledge-bases/:id",
    expected: [200, 200, 200, 404, 404, 404],
    run: (c) => status(`/api/knowledge-bases/${fx.kbId}`)(c),
  },
  {
    name: "PATCH /api/knowledge-bases/:id",
    expected: [200, 200, 403, 404, 404, 403],
    run: (c) => status(`/api/knowledge-bases/${fx.kbId}`, json("PATCH", { description: unique("d") }))(c),
  },
  {
    name: "DELETE /api/knowledge-bases/:id",
    expected: [200, 200, 403, 404, 404, 403],
    run: async (c) => status(`/api/knowledge-bases/${await createKb(unique("doomed"))}`, { method: "DELETE" })(c),
  },
  {
    name: "GET /api/knowledge-bases/:id/documents",
    expected: [200, 200, 200, 404, 404, 404],
    run: (c) => status(`/api/knowledge-bases/${fx.kbId}/documents`)(c),
  },
  {
    name: "POST /api/knowledge-bases/:id/documents",
    expected: [201, 201, 403, 404, 404, 403],
    run: (c) =>
      status(
        `/api/knowledge-bases/${fx.kbId}/documents`,
        json("POST", { filename: `${unique("f")}.md`, content: `# x\n\n${unique("y")}` }),
      )(c),
  },
  {
    name: "GET /api/knowledge-bases/:id/documents/:docId",
    expected: [200, 200, 200, 404, 404, 404],
    run: (c) => status(`/api/knowledge-bases/${fx.kbId}/documents/${fx.docId}`)(c),
  },
  {
    name: "GET /api/knowledge-bases/:id/passages/:chunkId",
    expected: [200, 200, 200, 404, 404, 404],
    run: async (c) => {
      const chunk = await dbOf("t-jinxiu")
        .prepare("SELECT id FROM chunks WHERE document_id = ?1 ORDER BY position")
        .bind(fx.docId)
        .first<{ id: string }>();
      return status(`/api/knowledge-bases/${fx.kbId}/passages/${chunk?.id}`)(c);
    },
  },
  {
    name: "PUT /api/knowledge-bases/:id/documents/:docId",
    expected: [200, 200, 403, 404, 404, 403],
    run: (c) =>
      status(`/api/knowledge-bases/${fx.kbId}/documents/${fx.docId}`, json("PUT", { content: `# x\n\n${unique("v")}` }))(c),
  },
  {
    name: "DELETE /api/knowledge-bases/:id/documents/:docId",
    expected: [200, 200, 403, 404, 404, 403],
    run: async (c) =>
      status(`/api/knowledge-bases/${fx.kbId}/documents/${await uploadDoc(fx.kbId, `${unique("gone")}.md`)}`, {
        method: "DELETE",
      })(c),
  },
  {
    name: "GET /api/knowledge-bases/:id/faq of a jinxiu FAQ base",
    expected: [200, 200, 200, 404, 404, 404],
    run: async (c) => status(`/api/knowledge-bases/${await faqKb()}/faq`)(c),
  },
  {
    name: "POST /api/knowledge-bases/:id/faq",
    expected: [201, 201, 403, 404, 404, 403],
    run: async (c) =>
      status(`/api/knowledge-bases/${await faqKb()}/faq`, json("POST", { question: unique("q"), answer: "a" }))(c),
  },
  { name: "GET /api/synonyms", expected: [200, 200, 200, 200, 200, 200], run: status("/api/synonyms") },
  {
    name: "PUT /api/synonyms (the caller's own workshop)",
    expected: [200, 200, 403, 200, 200, 403],
    run: (c) => status("/api/synonyms", json("PUT", { groups: DEFAULT_SYNONYMS }))(c),
  },
  {
    name: "POST /api/v1/knowledge-search in a jinxiu knowledge base",
    expected: [200, 200, 200, 404, 404, 404],
    run: (c) => status("/api/v1/knowledge-search", json("POST", { question: "跳针", knowledge_base_ids: [fx.kbId] }))(c),
  },
  {
    name: "GET /api/consult/trees sees jinxiu's own tree",
    expected: ["sees", "sees", "sees", "not", "not", "not"],
    run: async (c) => {
      const { trees } = await (await call("/api/consult/trees", { key: c.key })).json<{ trees: { id: string }[] }>();
      return trees.some((t) => t.id === "matrix-tree") ? "sees" : "not";
    },
  },
  {
    name: "PUT /api/consult/trees",
    expected: [200, 403, 403, 200, 403, 403],
    run: (c) =>
      status(
        "/api/consult/trees",
        json("PUT", {
          file_name: "t.json",
          content: JSON.stringify({ id: unique("t"), title: "T", root: "a", nodes: { a: { response: "A" } } }),
        }),
      )(c),
  },
  {
    name: "DELETE /api/consult/trees/:id of jinxiu's tree",
    expected: [200, 403, 403, 404, 403, 403],
    run: async (c) => {
      const id = unique("doomed-tree");
      await putTree(id);
      return status(`/api/consult/trees/${id}`, { method: "DELETE" })(c);
    },
  },
  {
    name: "DELETE /api/workshop (with a wrong confirmation, so nothing is deleted)",
    expected: [400, 403, 403, 400, 403, 403],
    run: status("/api/workshop?confirm=nope", { method: "DELETE" }),
  },
  {
    name: "DELETE /api/consult/trees/:id of a shipped tree",
    expected: [403, 403, 403, 403, 403, 403],
    run: status("/api/consult/trees/garment-defects", { method: "DELETE" }),
  },
  {
    name: "GET /api/consultations/:id of a jinxiu staff member's session",
    expected: [404, 404, 200, 404, 404, 404],
    run: (c) => status(`/api/consultations/${fx.sessionId}`)(c),
  },
  {
    name: "GET /api/actions/:id of a jinxiu staff member's action",
    expected: [404, 404, 200, 404, 404, 404],
    run: (c) => status(`/api/actions/${fx.staffActionId}`)(c),
  },
  {
    name: "POST /api/actions/:id/confirm of a jinxiu boss's action",
    expected: [404, 200, 404, 404, 404, 404],
    run: async (c) => status(`/api/actions/${await bossAction()}/confirm`, { method: "POST" })(c),
  },
  {
    name: "POST /api/actions/:id/confirm of a jinxiu staff member's own action, with her key (agents may not confirm)",
    expected: [404, 404, 403, 404, 404, 404],
    run: async (c) => {
      const result = await (await mcpClient(devKeys.staff)).callTool({
        name: "prepare_piece_record",
        arguments: { process: "上袖子", quantity: 1 },
      });
      const id = (result.structuredContent as { action_id: string }).action_id;
      return status(`/api/actions/${id}/confirm`, { method: "POST" })(c);
    },
  },
  {
    name: "POST /api/actions/:id/cancel of a jinxiu boss's action",
    expected: [404, 200, 404, 404, 404, 404],
    run: async (c) => status(`/api/actions/${await bossAction()}/cancel`, { method: "POST" })(c),
  },
  { name: "GET /api/audit", expected: [200, 200, 403, 200, 200, 403], run: status("/api/audit") },
  { name: "GET /api/feedback", expected: [200, 200, 403, 200, 200, 403], run: status("/api/feedback") },
  {
    name: "POST /api/feedback/:id/faq of a rating no workshop has",
    expected: [404, 404, 403, 404, 404, 403],
    run: (c) => status("/api/feedback/fb-none/faq", json("POST", { kb_id: "kb-none", entry_id: "e-none" }))(c),
  },
  { name: "GET /api/business/employees", expected: [200, 200, 403, 200, 200, 403], run: status("/api/business/employees") },
  {
    name: "GET /api/business/adjustments of a month",
    expected: [200, 200, 403, 200, 200, 403],
    run: status("/api/business/adjustments?month=2026-11"),
  },
  {
    name: "POST /api/business/changes of a jinxiu employee's phone",
    expected: [201, 201, 403, 404, 404, 403],
    run: status(
      "/api/business/changes",
      json("POST", { change: "employee_edit", employee: "e-jx-zhangsan", phone: "13800000000" }),
    ),
  },
  {
    name: "POST /api/business/import/employees",
    expected: [201, 201, 403, 201, 201, 403],
    run: async (c) => {
      const form = new FormData();
      form.append("file", new File([`姓名,电话\n${unique("矩阵")},13800000000\n`], "员工.csv", { type: "text/csv" }));
      return (await call("/api/business/import/employees", { method: "POST", key: c.key, body: form })).status;
    },
  },
  {
    name: "GET /api/audit/:id of a jinxiu entry",
    expected: [200, 200, 403, 404, 404, 403],
    run: (c) => status(`/api/audit/${fx.auditId}`)(c),
  },
  {
    // Likewise who may confirm a connected app's writes (test/oauth/consent-confirm-by.test.ts).
    name: "PATCH /api/oauth/connections/:id confirm_by, with an API key",
    expected: [403, 403, 403, 403, 403, 403],
    run: (c) => status(`/api/oauth/connections/${crypto.randomUUID()}`, json("PATCH", { confirm_by: "agent" }))(c),
  },
  { name: "GET /api/mcp/servers", expected: [200, 200, 403, 200, 200, 403], run: status("/api/mcp/servers") },
  { name: "GET /api/people", expected: [200, 200, 403, 200, 200, 403], run: status("/api/people") },
  {
    name: "POST /api/people of a staff member (in the caller's own workshop)",
    expected: [201, 201, 403, 201, 201, 403],
    run: (c) => status("/api/people", json("POST", { name: "新人", username: unique("matrix-new"), role: "staff" }))(c),
  },
  {
    name: "POST /api/people of an admin (in the caller's own workshop)",
    expected: [201, 403, 403, 201, 403, 403],
    run: (c) => status("/api/people", json("POST", { name: "新管理员", username: unique("matrix-admin"), role: "admin" }))(c),
  },
  {
    name: "PATCH /api/people/:id of a jinxiu staff member",
    expected: [200, 200, 403, 404, 404, 403],
    run: async (c) => status(`/api/people/${await jinxiuPerson()}`, json("PATCH", { name: unique("改名") }))(c),
  },
  {
    name: "PATCH /api/people/:id deactivating a jinxiu staff member",
    expected: [200, 200, 403, 404, 404, 403],
    run: async (c) => status(`/api/people/${await jinxiuPerson()}`, json("PATCH", { active: false }))(c),
  },
  {
    name: "PATCH /api/people/:id deactivating jinxiu's admin",
    expected: [403, 403, 403, 404, 404, 403],
    run: (c) => status("/api/people/u-admin", json("PATCH", { active: false }))(c),
  },
  {
    name: "POST /api/people/:id/reset-password of a jinxiu staff member",
    expected: [200, 200, 403, 404, 404, 403],
    run: async (c) => status(`/api/people/${await jinxiuPerson()}/reset-password`, { method: "POST" })(c),
  },
  {
    // A password is changed from the browser only (test/auth/people.test.ts).
    name: "POST /api/auth/password with an API key",
    expected: [403, 403, 403, 403, 403, 403],
    run: (c) => status("/api/auth/password", json("POST", { current_password: "x", new_password: "matrix-pass-2" }))(c),
  },
  {
    name: "POST /api/auth/set-password/check of a token no link has",
    expected: [404, 404, 404, 404, 404, 404],
    run: (c) => status("/api/auth/set-password/check", json("POST", { token: unknownToken() }))(c),
  },
  {
    name: "POST /api/auth/set-password of a token no link has",
    expected: [404, 404, 404, 404, 404, 404],
    run: (c) => status("/api/auth/set-password", json("POST", { token: unknownToken(), password: "matrix-pass-2" }))(c),
  },
  { name: "GET /api/workshops/signup", expected: [200, 200, 200, 200, 200, 200], run: status("/api/workshops/signup") },
  {
    // Sign-up takes no credential: a key sent along names nobody and changes nothing.
    name: "POST /api/workshops",
    expected: [201, 201, 201, 201, 201, 201],
    run: (c) =>
      status(
        "/api/workshops",
        json("POST", { workshop_name: "矩阵", name: "老板", username: unique("matrix-signup"), password: "matrix-pass-2" }),
      )(c),
  },
  // The operator's routes take an operator key, never a workshop's (test/auth/operator.test.ts): each
  // such try is a failed authentication, 401, or 429 once the key's prefix has failed ten times.
  { name: "GET /api/admin/workshops", expected: REFUSED_EVERYWHERE, run: refused("/api/admin/workshops") },
  { name: "GET /api/admin/invites", expected: REFUSED_EVERYWHERE, run: refused("/api/admin/invites") },
  { name: "POST /api/admin/invites", expected: REFUSED_EVERYWHERE, run: refused("/api/admin/invites", json("POST", {})) },
  {
    name: "DELETE /api/admin/invites/:id",
    expected: REFUSED_EVERYWHERE,
    run: refused("/api/admin/invites/x", { method: "DELETE" }),
  },
];

const clients = new Map<string, Client>();
async function client(caller: Caller): Promise<Client> {
  let found = clients.get(caller.key);
  if (!found) {
    found = await mcpClient(caller.key);
    clients.set(caller.key, found);
  }
  return found;
}

async function toolCell(caller: Caller, name: string, args: Record<string, unknown>): Promise<Cell> {
  const listed = (await (await client(caller)).listTools()).tools.some((t) => t.name === name);
  if (!listed) return "unlisted";
  const result = await (await client(caller)).callTool({ name, arguments: args });
  return result.isError ? "error" : "ok";
}

const TOOLS: Row[] = [
  {
    name: "tools/list",
    expected: ["all", "all", "all but the boss's writes", "all", "all", "all but the boss's writes"],
    run: async (c) => {
      const { tools } = await (await client(c)).listTools();
      const names = tools.map((t) => t.name).sort();
      const all = WEFT_TOOLS.map((t) => t.name).sort();
      if (JSON.stringify(names) === JSON.stringify(all)) return "all";
      const staffs = all.filter((n) => n !== "prepare_order" && n !== "prepare_business_change");
      return JSON.stringify(names) === JSON.stringify(staffs) ? "all but the boss's writes" : names.join(",");
    },
  },
  {
    name: "list_knowledge_bases sees the jinxiu knowledge base",
    expected: ["sees", "sees", "sees", "not", "not", "not"],
    run: async (c) => {
      const result = await (await client(c)).callTool({ name: "list_knowledge_bases", arguments: {} });
      const { knowledge_bases } = result.structuredContent as { knowledge_bases: { id: string }[] };
      return knowledge_bases.some((kb) => kb.id === fx.kbId) ? "sees" : "not";
    },
  },
  {
    name: "knowledge_search in the jinxiu knowledge base",
    expected: ["ok", "ok", "ok", "error", "error", "error"],
    run: (c) => toolCell(c, "knowledge_search", { query: "跳针", kb_ids: [fx.kbId] }),
  },
  {
    name: "initiate_session",
    expected: ["ok", "ok", "ok", "ok", "ok", "ok"],
    run: (c) => toolCell(c, "initiate_session", { user_query: "质量问题" }),
  },
  {
    name: "navigate_session on a jinxiu staff member's session",
    expected: ["error", "error", "ok", "error", "error", "error"],
    run: (c) =>
      toolCell(c, "navigate_session", { session_id: fx.sessionId, selected_option_id: "provide_more_info", user_input: "1" }),
  },
  // The other workshop's staff key is linked to no employee, so it has no records of its own.
  {
    name: "query_piece_records of jinxiu's 张三",
    expected: ["ok", "ok", "error", "error", "error", "error"],
    run: (c) => toolCell(c, "query_piece_records", { employee: "e-jx-zhangsan" }),
  },
  {
    name: "query_payroll of one's own scope",
    expected: ["ok", "ok", "ok", "ok", "ok", "error"],
    run: (c) => toolCell(c, "query_payroll", {}),
  },
  {
    name: "query_employees of one's own scope",
    expected: ["ok", "ok", "ok", "ok", "ok", "error"],
    run: (c) => toolCell(c, "query_employees", {}),
  },
  {
    name: "query_orders of a jinxiu order",
    expected: ["ok", "ok", "ok", "error", "error", "error"],
    run: (c) => toolCell(c, "query_orders", { order: "o-jx-1" }),
  },
  {
    name: "query_processes",
    expected: ["ok", "ok", "ok", "ok", "ok", "ok"],
    run: (c) => toolCell(c, "query_processes", {}),
  },
  {
    name: "prepare_piece_record for jinxiu's 张三",
    expected: ["ok", "ok", "error", "error", "error", "error"],
    run: (c) => toolCell(c, "prepare_piece_record", { employee: "e-jx-zhangsan", process: "领子", quantity: 1, order: "o-jx-1" }),
  },
  {
    name: "prepare_order of jinxiu's style A01",
    expected: ["ok", "ok", "unlisted", "error", "error", "unlisted"],
    run: (c) => toolCell(c, "prepare_order", { customer: "matrix", style: "st-jx-a01", quantity: 1, due_date: "2999-01-01" }),
  },
  {
    name: "prepare_business_change of a jinxiu employee's phone",
    expected: ["ok", "ok", "unlisted", "error", "error", "unlisted"],
    run: (c) =>
      toolCell(c, "prepare_business_change", { change: "employee_edit", employee: "e-jx-zhangsan", phone: "13800000000" }),
  },
  {
    name: "confirm_action of a jinxiu boss's action",
    expected: ["error", "ok", "error", "error", "error", "error"],
    run: async (c) => toolCell(c, "confirm_action", { action_id: await bossAction() }),
  },
  {
    name: "cancel_action of a jinxiu boss's action",
    expected: ["error", "ok", "error", "error", "error", "error"],
    run: async (c) => toolCell(c, "cancel_action", { action_id: await bossAction() }),
  },
];

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare("INSERT OR IGNORE INTO users (id, tenant_id, name, role) VALUES ('u-m-admin', 't-other', 'A', 'admin')"),
    env.DB.prepare("INSERT OR IGNORE INTO users (id, tenant_id, name, role) VALUES ('u-m-staff', 't-other', 'S', 'staff')"),
    dbOf("t-jinxiu")
      .prepare(
        "INSERT OR IGNORE INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES ('k-m-admin', 't-other', 'u-m-admin', 'm', 'matr', ?1)",
      )
      .bind(await hashApiKey("matrix-other-admin-key")),
    dbOf("t-jinxiu")
      .prepare(
        "INSERT OR IGNORE INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES ('k-m-staff', 't-other', 'u-m-staff', 'm', 'matr', ?1)",
      )
      .bind(await hashApiKey("matrix-other-staff-key")),
  ]);
  const kbId = await createKb("matrix-kb");
  const docId = await uploadDoc(kbId, "matrix.md");
  await putTree("matrix-tree");
  const started = await (await mcpClient(devKeys.staff)).callTool({
    name: "initiate_session",
    arguments: { user_query: "你好" },
  });
  const prepared = await (await mcpClient(devKeys.staff)).callTool({
    name: "prepare_piece_record",
    arguments: { process: "上袖子", quantity: 1, order: "o-jx-1" },
  });
  const confirmed = await bossAction();
  await (await mcpClient(devKeys.boss)).callTool({ name: "confirm_action", arguments: { action_id: confirmed } });
  fx = {
    kbId,
    docId,
    sessionId: (started.structuredContent as { session_id: string }).session_id,
    staffActionId: (prepared.structuredContent as { action_id: string }).action_id,
    auditId: `audit-${confirmed}`,
  };
});

describe("role matrix", () => {
  it("has a least role for each permission that the rows below exercise", () => {
    expect(LEAST_ROLE).toEqual({
      "knowledge:read": "staff",
      "knowledge:write": "boss",
      "keys:own": "staff",
      "keys:others": "admin",
      "trees:write": "admin",
      "workshop:delete": "admin",
      "business:workshop": "boss",
      "orders:write": "boss",
      "business:manage": "boss",
      "audit:read": "boss",
      "servers:manage": "boss",
      "people:manage": "boss",
      "feedback:read": "boss",
    });
  });

  for (const row of [...ROUTES, ...TOOLS]) {
    it(row.name, async () => {
      const actual: Record<string, Cell> = {};
      const expected: Record<string, Cell> = {};
      for (const [index, caller] of CALLERS.entries()) {
        actual[caller.label] = await row.run(caller);
        expected[caller.label] = row.expected[index] as Cell;
      }
      expect(actual).toEqual(expected);
    });
  }
});
