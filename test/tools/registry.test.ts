import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolContext } from "../../src/tools/context.ts";
import { WEFT_TOOLS as TOOLS, toolsFor } from "../../src/tools/registry.ts";
import type { UserContext } from "../../src/user-context.ts";

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
      "confirm_action",
      "cancel_action",
    ]);
  });

  it("gives every tool a snake_case name, a description, annotations and described fields", () => {
    for (const tool of TOOLS) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.annotations.readOnlyHint).toBeTypeOf("boolean");
      expect(tool.annotations.destructiveHint).toBeTypeOf("boolean");
      const schema = z.toJSONSchema(tool.inputSchema) as { properties?: Record<string, { description?: string }> };
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${field} needs .describe()`).toBeTruthy();
      }
    }
  });

  it("pins each tool's input schema", () => {
    const schemas = Object.fromEntries(TOOLS.map((t) => [t.name, z.toJSONSchema(t.inputSchema)]));
    expect(schemas).toMatchInlineSnapshot(`
      {
        "cancel_action": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "action_id": {
              "description": "The action_id returned by prepare_piece_record or prepare_order.",
              "maxLength": 128,
              "minLength": 1,
              "type": "string",
            },
          },
          "required": [
            "action_id",
          ],
          "type": "object",
        },
        "confirm_action": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "action_id": {
              "description": "The action_id returned by prepare_piece_record or prepare_order.",
              "maxLength": 128,
              "minLength": 1,
              "type": "string",
            },
          },
          "required": [
            "action_id",
          ],
          "type": "object",
        },
        "initiate_session": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "user_query": {
              "description": "The user's original question, verbatim, in any language.",
              "maxLength": 2000,
              "minLength": 1,
              "type": "string",
            },
          },
          "required": [
            "user_query",
          ],
          "type": "object",
        },
        "knowledge_search": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "kb_ids": {
              "description": "Only these knowledge bases (ids from list_knowledge_bases). Omit for all.",
              "items": {
                "minLength": 1,
                "type": "string",
              },
              "maxItems": 100,
              "type": "array",
            },
            "min_score": {
              "default": 0.2,
              "description": "Minimum relevance score (0-1); scores mean the same in every mode.",
              "maximum": 1,
              "minimum": 0,
              "type": "number",
            },
            "query": {
              "description": "Search query: natural language or keywords.",
              "maxLength": 2000,
              "minLength": 1,
              "type": "string",
            },
            "rerank": {
              "default": true,
              "description": "Rerank candidates for better relevance.",
              "type": "boolean",
            },
            "search_mode": {
              "default": "hybrid",
              "description": "hybrid (recommended), vector (meaning), or keyword (exact words).",
              "enum": [
                "hybrid",
                "vector",
                "keyword",
              ],
              "type": "string",
            },
            "top_k": {
              "default": 10,
              "description": "Maximum results to return (1-50).",
              "maximum": 50,
              "minimum": 1,
              "type": "integer",
            },
          },
          "required": [
            "query",
            "search_mode",
            "top_k",
            "min_score",
            "rerank",
          ],
          "type": "object",
        },
        "list_knowledge_bases": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "name_contains": {
              "description": "Only bases whose name contains this text (case-insensitive). Omit to list all.",
              "maxLength": 100,
              "type": "string",
            },
          },
          "type": "object",
        },
        "navigate_session": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "selected_option_id": {
              "description": "The id of the chosen option, or 'back', 'end', or 'provide_more_info' (with user_input).",
              "maxLength": 64,
              "minLength": 1,
              "type": "string",
            },
            "session_id": {
              "description": "The session_id returned by initiate_session.",
              "maxLength": 128,
              "minLength": 1,
              "type": "string",
            },
            "user_input": {
              "description": "The user's own words. Required with 'provide_more_info'; optional extra detail otherwise.",
              "maxLength": 2000,
              "type": "string",
            },
          },
          "required": [
            "session_id",
            "selected_option_id",
          ],
          "type": "object",
        },
        "prepare_order": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "customer": {
              "description": "The customer or brand that placed the order.",
              "maxLength": 100,
              "minLength": 1,
              "type": "string",
            },
            "due_date": {
              "description": "Due date (交货日期), YYYY-MM-DD, today or later.",
              "type": "string",
            },
            "note": {
              "description": "Fabric, colours, packing and other requirements (备注).",
              "maxLength": 500,
              "type": "string",
            },
            "quantity": {
              "description": "Total pieces ordered, a whole number.",
              "maximum": 1000000,
              "minimum": 1,
              "type": "integer",
            },
            "style": {
              "description": "The style (款式): code (A01), name (男式衬衫) or id.",
              "maxLength": 50,
              "minLength": 1,
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
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "employee": {
              "description": "Whose pieces: name, 工号 or id. Required for a boss; staff leave it out.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "order": {
              "description": "The order: number (2026-015) or id. Leave out to use the only open order with this process.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "process": {
              "description": "The process (工序): name (领子 finds 上领子 when it is the only match) or id.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "quantity": {
              "description": "Pieces done, a whole number from 1 to 10000.",
              "maximum": 10000,
              "minimum": 1,
              "type": "integer",
            },
            "work_date": {
              "description": "The day the work was done, YYYY-MM-DD; defaults to today in the workshop.",
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
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "cursor": {
              "description": "next_cursor from the previous page, unchanged, for the next page.",
              "maxLength": 400,
              "type": "string",
            },
            "limit": {
              "default": 20,
              "description": "Rows per page (1-100, default 20).",
              "maximum": 100,
              "minimum": 1,
              "type": "integer",
            },
            "name_contains": {
              "description": "Only employees whose name contains this text.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "status": {
              "description": "active (在职) or left (已离职). Omit for both.",
              "enum": [
                "active",
                "left",
              ],
              "type": "string",
            },
          },
          "required": [
            "limit",
          ],
          "type": "object",
        },
        "query_orders": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "cursor": {
              "description": "next_cursor from the previous page, unchanged, for the next page.",
              "maxLength": 400,
              "type": "string",
            },
            "customer_contains": {
              "description": "Only orders whose customer name contains this text.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "due_from": {
              "description": "Earliest due date, YYYY-MM-DD.",
              "type": "string",
            },
            "due_to": {
              "description": "Latest due date, YYYY-MM-DD.",
              "type": "string",
            },
            "limit": {
              "default": 20,
              "description": "Rows per page (1-100, default 20).",
              "maximum": 100,
              "minimum": 1,
              "type": "integer",
            },
            "order": {
              "description": "One order: its number (2026-015) or id.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "status": {
              "description": "pending (待生产), in_production (生产中), completed (已完成), cancelled (已取消), or open (the first two).",
              "enum": [
                "pending",
                "in_production",
                "completed",
                "cancelled",
                "open",
              ],
              "type": "string",
            },
            "style": {
              "description": "Only orders of this style: code (A01) or name.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
          },
          "required": [
            "limit",
          ],
          "type": "object",
        },
        "query_payroll": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "cursor": {
              "description": "next_cursor from the previous page, unchanged, for the next page.",
              "maxLength": 400,
              "type": "string",
            },
            "employee": {
              "description": "Only this employee: name, 工号 or id. Staff may leave it out.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "limit": {
              "default": 20,
              "description": "Rows per page (1-100, default 20).",
              "maximum": 100,
              "minimum": 1,
              "type": "integer",
            },
            "month": {
              "description": "A calendar month, YYYY-MM (for 三月 of this year: 2026-03). The workshop's local month.",
              "pattern": "^\\d{4}-(0[1-9]|1[0-2])$",
              "type": "string",
            },
          },
          "required": [
            "limit",
          ],
          "type": "object",
        },
        "query_piece_records": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "cursor": {
              "description": "next_cursor from the previous page, unchanged, for the next page.",
              "maxLength": 400,
              "type": "string",
            },
            "date_from": {
              "description": "First work date to include, YYYY-MM-DD (with or without date_to).",
              "type": "string",
            },
            "date_to": {
              "description": "Last work date to include, YYYY-MM-DD.",
              "type": "string",
            },
            "employee": {
              "description": "Only this employee: name, 工号 or id. Staff may leave it out (they only see their own).",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "group_by": {
              "description": "Also return subtotals per employee, process, order or date.",
              "enum": [
                "employee",
                "process",
                "order",
                "date",
              ],
              "type": "string",
            },
            "limit": {
              "default": 20,
              "description": "Rows per page (1-100, default 20).",
              "maximum": 100,
              "minimum": 1,
              "type": "integer",
            },
            "month": {
              "description": "A calendar month, YYYY-MM (for 三月 of this year: 2026-03). The workshop's local month.",
              "pattern": "^\\d{4}-(0[1-9]|1[0-2])$",
              "type": "string",
            },
            "order": {
              "description": "Only this order: number (2026-015) or id.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "period": {
              "description": "A period in the workshop's time zone: today, yesterday, this_week, last_week, this_month, last_month.",
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
              "description": "Only this process: name (领子 finds 上领子 when it is the only match) or id.",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
          },
          "required": [
            "limit",
          ],
          "type": "object",
        },
        "query_processes": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "cursor": {
              "description": "next_cursor from the previous page, unchanged, for the next page.",
              "maxLength": 400,
              "type": "string",
            },
            "include_inactive": {
              "default": false,
              "description": "Also list disabled (停用) processes.",
              "type": "boolean",
            },
            "limit": {
              "default": 20,
              "description": "Rows per page (1-100, default 20).",
              "maximum": 100,
              "minimum": 1,
              "type": "integer",
            },
            "name_contains": {
              "description": "Only processes whose name contains this text (领子).",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
            "style": {
              "description": "Only this style: its code (A01) or name (男式衬衫).",
              "maxLength": 50,
              "minLength": 1,
              "type": "string",
            },
          },
          "required": [
            "include_inactive",
            "limit",
          ],
          "type": "object",
        },
      }
    `);
  });

  it("offers staff the same read tools as a boss", async () => {
    const names = async (user: UserContext) =>
      (await toolsFor(toolContext({ env, user, requestId: "r", signal: new AbortController().signal }))).map((t) => t.name);
    const staff = await names({ userId: "u-staff", tenantId: "t-jinxiu", role: "staff" });
    const boss = await names({ userId: "u-boss", tenantId: "t-jinxiu", role: "boss" });
    for (const tool of TOOLS.filter((t) => t.annotations.readOnlyHint)) {
      expect(staff).toContain(tool.name);
      expect(boss).toContain(tool.name);
    }
  });

  it("marks business reads read-only and writes not, and offers prepare_order to a boss only", async () => {
    const byName = new Map(TOOLS.map((t) => [t.name, t]));
    for (const name of ["query_orders", "query_piece_records", "query_payroll", "query_processes", "query_employees"]) {
      expect(byName.get(name)?.annotations.readOnlyHint, name).toBe(true);
    }
    for (const name of ["prepare_piece_record", "prepare_order", "confirm_action", "cancel_action"]) {
      expect(byName.get(name)?.annotations.readOnlyHint, name).toBe(false);
    }
    expect(byName.get("confirm_action")?.description).toMatch(/never on your own initiative/i);
    const names = async (user: UserContext) =>
      (await toolsFor(toolContext({ env, user, requestId: "r", signal: new AbortController().signal }))).map((t) => t.name);
    expect(await names({ userId: "u-staff", tenantId: "t-jinxiu", role: "staff" })).not.toContain("prepare_order");
    expect(await names({ userId: "u-boss", tenantId: "t-jinxiu", role: "boss" })).toContain("prepare_order");
  });
});
