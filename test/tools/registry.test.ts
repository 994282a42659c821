import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inputJsonSchema, outputJsonSchema } from "../../src/tools/json-schemas.ts";
import { WEFT_TOOLS as TOOLS, toolsFor } from "../../src/tools/registry.ts";
import type { UserContext } from "../../src/user-context.ts";
import { testContext } from "../fixtures.ts";

// The contract: a tool cannot vanish or change its schema without this test changing too.
describe("the tool registry", () => {
  it("holds exactly the expected tools", () => {
    expect(TOOLS.map((t) => t.name)).toEqual([
      "knowledge_search",
      "list_knowledge_bases",
      "initiate_session",
      "navigate_session",
      "query_orders",
      "query_piece_records",
      "query_payroll",
      "query_processes",
      "query_employees",
      "prepare_piece_record",
      "prepare_order",
      "prepare_business_change",
      "confirm_action",
      "cancel_action",
    ]);
  });

  it("gives every tool a snake_case name, a description, annotations, its words, an output schema and described fields", () => {
    for (const tool of TOOLS) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.annotations.readOnlyHint).toBeTypeOf("boolean");
      // The spec reads the destructive hint only on writes, where MCP's default (true) would be wrong.
      if (!tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint, tool.name).toBe(false);
      expect(tool.words.title.zh, tool.name).toMatch(/\p{Script=Han}/u);
      expect(tool.words.title.en, tool.name).toBe(tool.title);
      expect(tool.outputSchema, tool.name).toBeDefined();
      const schema = z.toJSONSchema(tool.inputSchema) as { properties?: Record<string, { description?: string }> };
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${field} needs .describe()`).toBeTruthy();
      }
    }
  });

  it("pins each tool's input schema, as tools/list shows it", () => {
    const schemas = Object.fromEntries(TOOLS.map((t) => [t.name, inputJsonSchema(t)]));
    expect(schemas).toMatchInlineSnapshot(`
      {
        "cancel_action": {
          "properties": {
            "action_id": {
              "description": "From a prepare tool.",
              "type": "string",
            },
          },
          "required": [
            "action_id",
          ],
          "type": "object",
        },
        "confirm_action": {
          "properties": {
            "action_id": {
              "description": "From a prepare tool.",
              "type": "string",
            },
          },
          "required": [
            "action_id",
          ],
          "type": "object",
        },
        "initiate_session": {
          "properties": {
            "user_query": {
              "description": "The user's original question, verbatim, in any language.",
              "type": "string",
            },
          },
          "required": [
            "user_query",
          ],
          "type": "object",
        },
        "knowledge_search": {
          "properties": {
            "kb_ids": {
              "description": "Only these bases (list_knowledge_bases).",
              "items": {
                "type": "string",
              },
              "maxItems": 100,
              "type": "array",
            },
            "min_score": {
              "default": 0.5,
              "description": "The least chance (0-1) that a passage answers.",
              "minimum": 0,
              "type": "number",
            },
            "query": {
              "description": "Natural language or keywords.",
              "type": "string",
            },
            "rerank": {
              "default": true,
              "description": "Rerank the candidates.",
              "type": "boolean",
            },
            "search_mode": {
              "default": "hybrid",
              "description": "keyword for exact codes or names.",
              "enum": [
                "hybrid",
                "vector",
                "keyword",
              ],
              "type": "string",
            },
            "source": {
              "default": "all",
              "description": "Only document or only FAQ bases.",
              "enum": [
                "all",
                "document",
                "faq",
              ],
              "type": "string",
            },
            "top_k": {
              "default": 10,
              "description": "Most results (1-50).",
              "minimum": 1,
              "type": "integer",
            },
          },
          "required": [
            "query",
          ],
          "type": "object",
        },
        "list_knowledge_bases": {
          "properties": {
            "name_contains": {
              "description": "Only bases whose name contains this (any case).",
              "type": "string",
            },
          },
          "type": "object",
        },
        "navigate_session": {
          "properties": {
            "selected_option_id": {
              "description": "An option's id, back, end or provide_more_info.",
              "type": "string",
            },
            "session_id": {
              "description": "From initiate_session.",
              "type": "string",
            },
            "user_input": {
              "description": "The user's words, for provide_more_info.",
              "type": "string",
            },
          },
          "required": [
            "session_id",
            "selected_option_id",
          ],
          "type": "object",
        },
        "prepare_business_change": {
          "properties": {
            "adjustment": {
              "description": "Id (query_payroll).",
              "type": "string",
            },
            "amount": {
              "description": "元.",
              "minimum": 0.01,
              "type": "number",
            },
            "change": {
              "description": "What.",
              "enum": [
                "employee_add",
                "employee_edit",
                "employee_leave",
                "employee_rejoin",
                "style_add",
                "style_edit",
                "process_add",
                "process_edit",
                "process_disable",
                "process_enable",
                "price",
                "order",
                "adjustment_add",
                "adjustment_remove",
                "workshop",
              ],
              "type": "string",
            },
            "code": {
              "description": "款号.",
              "type": "string",
            },
            "date": {
              "description": "Default today.",
              "type": "string",
            },
            "due_date": {
              "description": "交期.",
              "type": "string",
            },
            "employee": {
              "description": "员工.",
              "type": "string",
            },
            "employee_no": {
              "description": "工号.",
              "type": "string",
            },
            "kind": {
              "description": "补贴/扣款.",
              "enum": [
                "allowance",
                "deduction",
              ],
              "type": "string",
            },
            "month": {
              "description": "YYYY-MM.",
              "type": "string",
            },
            "name": {
              "description": "名称.",
              "type": "string",
            },
            "note": {
              "description": "备注.",
              "type": "string",
            },
            "order": {
              "description": "订单号.",
              "type": "string",
            },
            "phone": {
              "description": "电话.",
              "type": "string",
            },
            "process": {
              "description": "工序.",
              "type": "string",
            },
            "quantity": {
              "description": "件数.",
              "minimum": 1,
              "type": "integer",
            },
            "reason": {
              "description": "原因.",
              "type": "string",
            },
            "status": {
              "description": "状态.",
              "enum": [
                "pending",
                "in_production",
                "completed",
                "cancelled",
              ],
              "type": "string",
            },
            "style": {
              "description": "款式.",
              "type": "string",
            },
            "time_zone": {
              "description": "IANA.",
              "type": "string",
            },
            "unit_price": {
              "description": "元.",
              "minimum": 0,
              "type": "number",
            },
          },
          "required": [
            "change",
          ],
          "type": "object",
        },
        "prepare_order": {
          "properties": {
            "customer": {
              "description": "Customer or brand.",
              "type": "string",
            },
            "due_date": {
              "description": "交货日期, YYYY-MM-DD.",
              "type": "string",
            },
            "note": {
              "description": "备注: fabric, colours, packing.",
              "type": "string",
            },
            "quantity": {
              "description": "Pieces ordered.",
              "minimum": 1,
              "type": "integer",
            },
            "style": {
              "description": "款式: code (A01), name or id.",
              "type": "string",
            },
          },
          "required": [
            "customer",
            "style",
            "quantity",
            "due_date",
          ],
          "type": "object",
        },
        "prepare_piece_record": {
          "properties": {
            "employee": {
              "description": "Name, 工号 or id; a boss must give it.",
              "type": "string",
            },
            "order": {
              "description": "Number or id; the only open order with this process when left out.",
              "type": "string",
            },
            "process": {
              "description": "Name or id (领子 finds 上领子).",
              "type": "string",
            },
            "quantity": {
              "description": "Pieces done.",
              "minimum": 1,
              "type": "integer",
            },
            "work_date": {
              "description": "YYYY-MM-DD; today when left out.",
              "type": "string",
            },
          },
          "required": [
            "process",
            "quantity",
          ],
          "type": "object",
        },
        "query_employees": {
          "properties": {
            "cursor": {
              "description": "next_cursor, for the next page.",
              "type": "string",
            },
            "limit": {
              "default": 10,
              "description": "Rows a page.",
              "minimum": 1,
              "type": "integer",
            },
            "name_contains": {
              "description": "Part of the name.",
              "type": "string",
            },
            "status": {
              "description": "在职 or 已离职; both when left out.",
              "enum": [
                "active",
                "left",
              ],
              "type": "string",
            },
          },
          "type": "object",
        },
        "query_orders": {
          "properties": {
            "created_from": {
              "description": "YYYY-MM-DD",
              "type": "string",
            },
            "created_to": {
              "description": "YYYY-MM-DD",
              "type": "string",
            },
            "cursor": {
              "description": "next_cursor, for the next page.",
              "type": "string",
            },
            "customer_contains": {
              "description": "Part of the customer's name.",
              "type": "string",
            },
            "due_from": {
              "description": "YYYY-MM-DD",
              "type": "string",
            },
            "due_to": {
              "description": "YYYY-MM-DD",
              "type": "string",
            },
            "limit": {
              "default": 10,
              "description": "Rows a page.",
              "minimum": 1,
              "type": "integer",
            },
            "order": {
              "description": "Number (2026-015) or id.",
              "type": "string",
            },
            "status": {
              "description": "pending, in_production, completed, cancelled, or open (the first two).",
              "type": "string",
            },
            "style": {
              "description": "Code (A01) or name.",
              "type": "string",
            },
          },
          "type": "object",
        },
        "query_payroll": {
          "properties": {
            "cursor": {
              "description": "next_cursor, for the next page.",
              "type": "string",
            },
            "employee": {
              "description": "Name, 工号 or id.",
              "type": "string",
            },
            "limit": {
              "default": 10,
              "description": "Rows a page.",
              "minimum": 1,
              "type": "integer",
            },
            "month": {
              "description": "YYYY-MM (三月: 2026-03).",
              "pattern": "^\\d{4}-(0[1-9]|1[0-2])$",
              "type": "string",
            },
            "period": {
              "description": "In the workshop's time zone.",
              "enum": [
                "this_month",
                "last_month",
              ],
              "type": "string",
            },
            "sort_by": {
              "description": "employee_no (default), or largest first.",
              "enum": [
                "employee_no",
                "pieces",
                "net_pay",
              ],
              "type": "string",
            },
            "top": {
              "description": "Only the first N after sort_by; no cursor.",
              "minimum": 1,
              "type": "integer",
            },
            "with_lines": {
              "default": false,
              "description": "Pieces per process and unit price.",
              "type": "boolean",
            },
          },
          "type": "object",
        },
        "query_piece_records": {
          "properties": {
            "cursor": {
              "description": "next_cursor, for the next page.",
              "type": "string",
            },
            "date_from": {
              "description": "YYYY-MM-DD",
              "type": "string",
            },
            "date_to": {
              "description": "YYYY-MM-DD",
              "type": "string",
            },
            "employee": {
              "description": "Name, 工号 or id.",
              "type": "string",
            },
            "group_by": {
              "description": "Subtotals in place of records.",
              "enum": [
                "employee",
                "process",
                "order",
                "date",
              ],
              "type": "string",
            },
            "limit": {
              "default": 10,
              "description": "Rows a page.",
              "minimum": 1,
              "type": "integer",
            },
            "month": {
              "description": "YYYY-MM (三月: 2026-03).",
              "pattern": "^\\d{4}-(0[1-9]|1[0-2])$",
              "type": "string",
            },
            "order": {
              "description": "Number (2026-015) or id.",
              "type": "string",
            },
            "period": {
              "description": "In the workshop's time zone.",
              "enum": [
                "today",
                "yesterday",
                "this_week",
                "last_week",
                "this_month",
                "last_month",
              ],
              "type": "string",
            },
            "process": {
              "description": "Name or id (领子 finds 上领子).",
              "type": "string",
            },
            "sort_by": {
              "description": "Records: date (default, newest first), pieces, amount. Groups: pieces (default), amount, name.",
              "enum": [
                "date",
                "pieces",
                "amount",
                "name",
              ],
              "type": "string",
            },
            "top": {
              "description": "Only the first N after sort_by; no cursor.",
              "minimum": 1,
              "type": "integer",
            },
            "with_records": {
              "default": false,
              "description": "With group_by, the records too.",
              "type": "boolean",
            },
          },
          "type": "object",
        },
        "query_processes": {
          "properties": {
            "cursor": {
              "description": "next_cursor, for the next page.",
              "type": "string",
            },
            "include_inactive": {
              "default": false,
              "description": "Disabled ones too.",
              "type": "boolean",
            },
            "limit": {
              "default": 10,
              "description": "Rows a page.",
              "minimum": 1,
              "type": "integer",
            },
            "name_contains": {
              "description": "Part of the name (领子).",
              "type": "string",
            },
            "style": {
              "description": "Code (A01) or name (男式衬衫).",
              "type": "string",
            },
            "with_history": {
              "default": false,
              "description": "改价记录 too.",
              "type": "boolean",
            },
          },
          "type": "object",
        },
      }
    `);
  });

  it("pins each tool's output schema, as tools/list shows it", () => {
    const schemas = Object.fromEntries(TOOLS.map((t) => [t.name, outputJsonSchema(t)]));
    expect(schemas).toMatchInlineSnapshot(`
      {
        "cancel_action": {
          "properties": {
            "action_id": {
              "type": "string",
            },
            "error": {
              "description": "{code, message}",
              "type": "object",
            },
            "kind": {
              "type": "string",
            },
            "result": {
              "type": "object",
            },
            "status": {
              "enum": [
                "pending",
                "confirming",
                "confirmed",
                "cancelled",
                "expired",
                "failed",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "tell_user": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "confirm_action": {
          "properties": {
            "action_id": {
              "type": "string",
            },
            "error": {
              "description": "{code, message}",
              "type": "object",
            },
            "kind": {
              "type": "string",
            },
            "result": {
              "type": "object",
            },
            "status": {
              "enum": [
                "pending",
                "confirming",
                "confirmed",
                "cancelled",
                "expired",
                "failed",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "tell_user": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "initiate_session": {
          "properties": {
            "current_step": {
              "type": "string",
            },
            "is_complete": {
              "type": "boolean",
            },
            "options": {
              "description": "[{id, description}]",
              "type": "array",
            },
            "response": {
              "type": "string",
            },
            "session_id": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "knowledge_search": {
          "properties": {
            "results": {
              "description": "[{citation, content, score, source, knowledge_base{id, name}, title, file, page, sheet, heading, uri, id}]",
              "type": "array",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "Passages at or above min_score, before top_k. {results}",
              "type": "object",
            },
          },
          "type": "object",
        },
        "list_knowledge_bases": {
          "properties": {
            "knowledge_bases": {
              "description": "[{id, name, description, type, document_count, updated_at}]",
              "type": "array",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "{knowledge_bases}",
              "type": "object",
            },
          },
          "type": "object",
        },
        "navigate_session": {
          "properties": {
            "current_step": {
              "type": "string",
            },
            "is_complete": {
              "type": "boolean",
            },
            "options": {
              "description": "[{id, description}]",
              "type": "array",
            },
            "response": {
              "type": "string",
            },
            "session_id": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "prepare_business_change": {
          "description": "Also: preview[{label, value}], ambiguities[{field, message, candidates[{id, label}]}], created_at, expires_at, confirm_url, result, error{code, message}, expires_local, time_zone, expires_in_minutes, confirm_by, next_step.",
          "properties": {
            "action_id": {
              "type": "string",
            },
            "kind": {
              "type": "string",
            },
            "status": {
              "enum": [
                "pending",
                "confirming",
                "confirmed",
                "cancelled",
                "expired",
                "failed",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "tell_user": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "prepare_order": {
          "description": "Also: preview[{label, value}], ambiguities[{field, message, candidates[{id, label}]}], created_at, expires_at, confirm_url, result, error{code, message}, expires_local, time_zone, expires_in_minutes, confirm_by, next_step.",
          "properties": {
            "action_id": {
              "type": "string",
            },
            "kind": {
              "type": "string",
            },
            "status": {
              "enum": [
                "pending",
                "confirming",
                "confirmed",
                "cancelled",
                "expired",
                "failed",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "tell_user": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "prepare_piece_record": {
          "description": "Also: preview[{label, value}], ambiguities[{field, message, candidates[{id, label}]}], created_at, expires_at, confirm_url, result, error{code, message}, expires_local, time_zone, expires_in_minutes, confirm_by, next_step.",
          "properties": {
            "action_id": {
              "type": "string",
            },
            "kind": {
              "type": "string",
            },
            "status": {
              "enum": [
                "pending",
                "confirming",
                "confirmed",
                "cancelled",
                "expired",
                "failed",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "tell_user": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "query_employees": {
          "description": "Also: period, filters, assumptions, next_cursor, today, time_zone.",
          "properties": {
            "employees": {
              "description": "[{id, name, employee_no, status, left_on, has_login, phone?}]",
              "type": "array",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "{employees}",
              "type": "object",
            },
          },
          "type": "object",
        },
        "query_orders": {
          "description": "Also: period, filters, assumptions, next_cursor, today, time_zone.",
          "properties": {
            "orders": {
              "description": "[{id, order_no, customer, style{code, name}, quantity, due_date, created_on, status, note, days_left, overdue, remaining_pieces, progress{processes, percent}}]",
              "type": "array",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "{orders, quantity}",
              "type": "object",
            },
          },
          "type": "object",
        },
        "query_payroll": {
          "description": "Also: period, filters, assumptions, next_cursor, today, time_zone.",
          "properties": {
            "month": {
              "type": "string",
            },
            "payslips": {
              "description": "[{employee{id, name, employee_no}, pieces, piece_wage(money), allowances(money), deductions(money), net_pay(money), adjustments[{id, kind, amount(money), reason}], lines?[{process{id, name, style_code}, unit_price(money), pieces, amount(money)}]}]",
              "type": "array",
            },
            "scope": {
              "enum": [
                "workshop",
                "own",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "{employees, pieces, piece_wage(money), allowances(money), deductions(money), net_pay(money)}",
              "type": "object",
            },
          },
          "type": "object",
        },
        "query_piece_records": {
          "description": "Also: period, filters, assumptions, next_cursor, today, time_zone.",
          "properties": {
            "groups": {
              "description": "[{records, pieces, amount(money), key, label}]",
              "type": "array",
            },
            "records": {
              "description": "[{id, work_date, employee{id, name}, process{id, name}, style{code, name}, order{id, order_no}, quantity, unit_price(money), amount(money), entered_by}]",
              "type": "array",
            },
            "scope": {
              "enum": [
                "workshop",
                "own",
              ],
              "type": "string",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "{records, pieces, amount(money), groups?}",
              "type": "object",
            },
          },
          "type": "object",
        },
        "query_processes": {
          "description": "Also: period, filters, assumptions, next_cursor, today, time_zone.",
          "properties": {
            "processes": {
              "description": "[{id, name, style{code, name}, unit_price(money), active, next_price?{unit_price(money), from}, price_history?[{unit_price(money), from, set_at, replaced}]}]",
              "type": "array",
            },
            "summary": {
              "type": "string",
            },
            "totals": {
              "description": "{processes}",
              "type": "object",
            },
          },
          "type": "object",
        },
      }
    `);
  });

  it("offers staff the same read tools as a boss", async () => {
    const names = async (user: UserContext) => (await toolsFor(testContext(user))).tools.map((t) => t.name);
    const staff = await names({ userId: "u-staff", tenantId: "t-jinxiu", role: "staff" });
    const boss = await names({ userId: "u-boss", tenantId: "t-jinxiu", role: "boss" });
    for (const tool of TOOLS.filter((t) => t.annotations.readOnlyHint)) {
      expect(staff).toContain(tool.name);
      expect(boss).toContain(tool.name);
    }
  });

  it("marks business reads read-only and writes not, and offers the boss's writes to a boss only", async () => {
    const byName = new Map(TOOLS.map((t) => [t.name, t]));
    for (const name of ["query_orders", "query_piece_records", "query_payroll", "query_processes", "query_employees"]) {
      expect(byName.get(name)?.annotations.readOnlyHint, name).toBe(true);
    }
    const bossWrites = TOOLS.filter((t) => t.name.startsWith("prepare_") && t.name !== "prepare_piece_record").map((t) => t.name);
    expect(bossWrites).toEqual(["prepare_order", "prepare_business_change"]);
    for (const name of ["prepare_piece_record", ...bossWrites, "confirm_action", "cancel_action"]) {
      expect(byName.get(name)?.annotations.readOnlyHint, name).toBe(false);
    }
    expect(byName.get("confirm_action")?.description).toMatch(/never on your own initiative/i);
    const names = async (user: UserContext) => (await toolsFor(testContext(user))).tools.map((t) => t.name);
    const staff = await names({ userId: "u-staff", tenantId: "t-jinxiu", role: "staff" });
    const boss = await names({ userId: "u-boss", tenantId: "t-jinxiu", role: "boss" });
    for (const name of bossWrites) {
      expect(staff, name).not.toContain(name);
      expect(boss, name).toContain(name);
    }
  });
});
