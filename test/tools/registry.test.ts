import { describe, expect, it } from "vitest";
import { z } from "zod";
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
              "description": "The action_id returned when a write was prepared.",
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
              "description": "The action_id returned when a write was prepared.",
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
              "default": 0.5,
              "description": "Minimum relevance score (0-1): the estimated chance that a passage answers the query, the same in every mode.",
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
            "created_from": {
              "description": "First day orders were placed on, YYYY-MM-DD in the workshop's time zone.",
              "type": "string",
            },
            "created_to": {
              "description": "Last day orders were placed on, YYYY-MM-DD in the workshop's time zone.",
              "type": "string",
            },
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

  it("pins each tool's output schema", () => {
    const schemas = Object.fromEntries(
      TOOLS.map((t) => [t.name, t.outputSchema ? z.toJSONSchema(t.outputSchema, { io: "output" }) : null]),
    );
    expect(schemas).toMatchInlineSnapshot(`
      {
        "cancel_action": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "action_id": {
              "type": "string",
            },
            "ambiguities": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "candidates": {
                    "items": {
                      "additionalProperties": false,
                      "properties": {
                        "id": {
                          "type": "string",
                        },
                        "label": {
                          "type": "string",
                        },
                      },
                      "required": [
                        "id",
                        "label",
                      ],
                      "type": "object",
                    },
                    "type": "array",
                  },
                  "field": {
                    "type": "string",
                  },
                  "message": {
                    "type": "string",
                  },
                },
                "required": [
                  "field",
                  "message",
                  "candidates",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "confirm_url": {
              "description": "The confirm page, where the person confirms it signed in to Weft.",
              "type": "string",
            },
            "created_at": {
              "type": "string",
            },
            "error": {
              "additionalProperties": false,
              "properties": {
                "code": {
                  "type": "string",
                },
                "message": {
                  "type": "string",
                },
              },
              "required": [
                "code",
                "message",
              ],
              "type": "object",
            },
            "expires_at": {
              "type": "string",
            },
            "kind": {
              "description": "The kind of write: piece_record, order, external_call, ...",
              "type": "string",
            },
            "preview": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "label": {
                    "type": "string",
                  },
                  "value": {
                    "type": "string",
                  },
                },
                "required": [
                  "label",
                  "value",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "result": {
              "additionalProperties": {},
              "propertyNames": {
                "type": "string",
              },
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
          },
          "required": [
            "action_id",
            "kind",
            "status",
            "summary",
            "preview",
            "ambiguities",
            "created_at",
            "expires_at",
            "confirm_url",
          ],
          "type": "object",
        },
        "confirm_action": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "action_id": {
              "type": "string",
            },
            "ambiguities": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "candidates": {
                    "items": {
                      "additionalProperties": false,
                      "properties": {
                        "id": {
                          "type": "string",
                        },
                        "label": {
                          "type": "string",
                        },
                      },
                      "required": [
                        "id",
                        "label",
                      ],
                      "type": "object",
                    },
                    "type": "array",
                  },
                  "field": {
                    "type": "string",
                  },
                  "message": {
                    "type": "string",
                  },
                },
                "required": [
                  "field",
                  "message",
                  "candidates",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "confirm_url": {
              "description": "The confirm page, where the person confirms it signed in to Weft.",
              "type": "string",
            },
            "created_at": {
              "type": "string",
            },
            "error": {
              "additionalProperties": false,
              "properties": {
                "code": {
                  "type": "string",
                },
                "message": {
                  "type": "string",
                },
              },
              "required": [
                "code",
                "message",
              ],
              "type": "object",
            },
            "expires_at": {
              "type": "string",
            },
            "kind": {
              "description": "The kind of write: piece_record, order, external_call, ...",
              "type": "string",
            },
            "preview": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "label": {
                    "type": "string",
                  },
                  "value": {
                    "type": "string",
                  },
                },
                "required": [
                  "label",
                  "value",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "result": {
              "additionalProperties": {},
              "propertyNames": {
                "type": "string",
              },
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
          },
          "required": [
            "action_id",
            "kind",
            "status",
            "summary",
            "preview",
            "ambiguities",
            "created_at",
            "expires_at",
            "confirm_url",
          ],
          "type": "object",
        },
        "initiate_session": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "current_step": {
              "description": "A short name for the current step.",
              "type": "string",
            },
            "is_complete": {
              "description": "True when the consultation has ended; no further navigation is possible.",
              "type": "boolean",
            },
            "options": {
              "description": "What the user can choose next. Show every description; send the chosen id.",
              "items": {
                "additionalProperties": false,
                "properties": {
                  "description": {
                    "type": "string",
                  },
                  "id": {
                    "type": "string",
                  },
                },
                "required": [
                  "id",
                  "description",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "response": {
              "description": "Say this to the user, as written.",
              "type": "string",
            },
            "session_id": {
              "description": "Pass this to navigate_session to continue.",
              "type": "string",
            },
          },
          "required": [
            "session_id",
            "response",
            "current_step",
            "options",
            "is_complete",
          ],
          "type": "object",
        },
        "knowledge_search": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "results": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "content": {
                    "type": "string",
                  },
                  "heading_path": {
                    "type": "string",
                  },
                  "id": {
                    "type": "string",
                  },
                  "knowledge_base_id": {
                    "type": "string",
                  },
                  "knowledge_filename": {
                    "type": "string",
                  },
                  "knowledge_id": {
                    "type": "string",
                  },
                  "knowledge_title": {
                    "type": "string",
                  },
                  "match_type": {
                    "enum": [
                      "hybrid",
                      "vector",
                      "keyword",
                    ],
                    "type": "string",
                  },
                  "page": {
                    "anyOf": [
                      {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      {
                        "type": "null",
                      },
                    ],
                  },
                  "position": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "score": {
                    "type": "number",
                  },
                  "sheet": {
                    "type": [
                      "string",
                      "null",
                    ],
                  },
                },
                "required": [
                  "id",
                  "content",
                  "score",
                  "knowledge_id",
                  "knowledge_title",
                  "knowledge_filename",
                  "match_type",
                  "knowledge_base_id",
                  "heading_path",
                  "position",
                  "page",
                  "sheet",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "total_count": {
              "maximum": 9007199254740991,
              "minimum": -9007199254740991,
              "type": "integer",
            },
          },
          "required": [
            "results",
            "total_count",
          ],
          "type": "object",
        },
        "list_knowledge_bases": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "knowledge_bases": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "description": {
                    "type": "string",
                  },
                  "document_count": {
                    "description": "Documents ready to search.",
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "id": {
                    "description": "Pass this id in kb_ids / knowledge_base_ids to search only this base.",
                    "type": "string",
                  },
                  "name": {
                    "type": "string",
                  },
                  "type": {
                    "enum": [
                      "document",
                      "faq",
                    ],
                    "type": "string",
                  },
                  "updated_at": {
                    "type": "string",
                  },
                },
                "required": [
                  "id",
                  "name",
                  "description",
                  "type",
                  "document_count",
                  "updated_at",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "total_count": {
              "maximum": 9007199254740991,
              "minimum": -9007199254740991,
              "type": "integer",
            },
          },
          "required": [
            "knowledge_bases",
            "total_count",
          ],
          "type": "object",
        },
        "navigate_session": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "current_step": {
              "description": "A short name for the current step.",
              "type": "string",
            },
            "is_complete": {
              "description": "True when the consultation has ended; no further navigation is possible.",
              "type": "boolean",
            },
            "options": {
              "description": "What the user can choose next. Show every description; send the chosen id.",
              "items": {
                "additionalProperties": false,
                "properties": {
                  "description": {
                    "type": "string",
                  },
                  "id": {
                    "type": "string",
                  },
                },
                "required": [
                  "id",
                  "description",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "response": {
              "description": "Say this to the user, as written.",
              "type": "string",
            },
            "session_id": {
              "description": "Pass this to navigate_session to continue.",
              "type": "string",
            },
          },
          "required": [
            "session_id",
            "response",
            "current_step",
            "options",
            "is_complete",
          ],
          "type": "object",
        },
        "prepare_order": null,
        "prepare_piece_record": null,
        "query_employees": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "employees": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "employee_no": {
                    "type": "string",
                  },
                  "has_login": {
                    "type": "boolean",
                  },
                  "id": {
                    "type": "string",
                  },
                  "left_on": {
                    "type": [
                      "string",
                      "null",
                    ],
                  },
                  "name": {
                    "type": "string",
                  },
                  "phone": {
                    "type": [
                      "string",
                      "null",
                    ],
                  },
                  "status": {
                    "enum": [
                      "active",
                      "left",
                    ],
                    "type": "string",
                  },
                },
                "required": [
                  "id",
                  "name",
                  "employee_no",
                  "status",
                  "left_on",
                  "has_login",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "next_cursor": {
              "type": [
                "string",
                "null",
              ],
            },
            "time_zone": {
              "type": "string",
            },
            "today": {
              "type": "string",
            },
            "total": {
              "maximum": 9007199254740991,
              "minimum": -9007199254740991,
              "type": "integer",
            },
          },
          "required": [
            "employees",
            "total",
            "next_cursor",
            "today",
            "time_zone",
          ],
          "type": "object",
        },
        "query_orders": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "next_cursor": {
              "type": [
                "string",
                "null",
              ],
            },
            "orders": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "created_on": {
                    "type": "string",
                  },
                  "customer": {
                    "type": "string",
                  },
                  "due_date": {
                    "type": "string",
                  },
                  "id": {
                    "type": "string",
                  },
                  "note": {
                    "type": "string",
                  },
                  "order_no": {
                    "type": "string",
                  },
                  "progress": {
                    "additionalProperties": false,
                    "properties": {
                      "percent": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "processes": {
                        "items": {
                          "additionalProperties": false,
                          "properties": {
                            "name": {
                              "type": "string",
                            },
                            "pieces": {
                              "maximum": 9007199254740991,
                              "minimum": -9007199254740991,
                              "type": "integer",
                            },
                            "process_id": {
                              "type": "string",
                            },
                          },
                          "required": [
                            "process_id",
                            "name",
                            "pieces",
                          ],
                          "type": "object",
                        },
                        "type": "array",
                      },
                    },
                    "required": [
                      "processes",
                      "percent",
                    ],
                    "type": "object",
                  },
                  "quantity": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "status": {
                    "enum": [
                      "pending",
                      "in_production",
                      "completed",
                      "cancelled",
                    ],
                    "type": "string",
                  },
                  "status_label": {
                    "type": "string",
                  },
                  "style": {
                    "additionalProperties": false,
                    "properties": {
                      "code": {
                        "type": "string",
                      },
                      "id": {
                        "type": "string",
                      },
                      "name": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "id",
                      "code",
                      "name",
                    ],
                    "type": "object",
                  },
                },
                "required": [
                  "id",
                  "order_no",
                  "customer",
                  "style",
                  "quantity",
                  "due_date",
                  "created_on",
                  "status",
                  "status_label",
                  "note",
                  "progress",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "time_zone": {
              "type": "string",
            },
            "today": {
              "type": "string",
            },
            "totals": {
              "additionalProperties": false,
              "properties": {
                "orders": {
                  "maximum": 9007199254740991,
                  "minimum": -9007199254740991,
                  "type": "integer",
                },
                "quantity": {
                  "maximum": 9007199254740991,
                  "minimum": -9007199254740991,
                  "type": "integer",
                },
              },
              "required": [
                "orders",
                "quantity",
              ],
              "type": "object",
            },
          },
          "required": [
            "orders",
            "totals",
            "next_cursor",
            "today",
            "time_zone",
          ],
          "type": "object",
        },
        "query_payroll": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "month": {
              "type": "string",
            },
            "next_cursor": {
              "type": [
                "string",
                "null",
              ],
            },
            "payslips": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "adjustments": {
                    "items": {
                      "additionalProperties": false,
                      "properties": {
                        "amount": {
                          "additionalProperties": false,
                          "properties": {
                            "cents": {
                              "maximum": 9007199254740991,
                              "minimum": -9007199254740991,
                              "type": "integer",
                            },
                            "yuan": {
                              "type": "string",
                            },
                          },
                          "required": [
                            "cents",
                            "yuan",
                          ],
                          "type": "object",
                        },
                        "kind": {
                          "enum": [
                            "allowance",
                            "deduction",
                          ],
                          "type": "string",
                        },
                        "kind_label": {
                          "type": "string",
                        },
                        "reason": {
                          "type": "string",
                        },
                      },
                      "required": [
                        "kind",
                        "kind_label",
                        "amount",
                        "reason",
                      ],
                      "type": "object",
                    },
                    "type": "array",
                  },
                  "allowances": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "deductions": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "employee": {
                    "additionalProperties": false,
                    "properties": {
                      "employee_no": {
                        "type": "string",
                      },
                      "id": {
                        "type": "string",
                      },
                      "name": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "id",
                      "name",
                      "employee_no",
                    ],
                    "type": "object",
                  },
                  "lines": {
                    "items": {
                      "additionalProperties": false,
                      "properties": {
                        "amount": {
                          "additionalProperties": false,
                          "properties": {
                            "cents": {
                              "maximum": 9007199254740991,
                              "minimum": -9007199254740991,
                              "type": "integer",
                            },
                            "yuan": {
                              "type": "string",
                            },
                          },
                          "required": [
                            "cents",
                            "yuan",
                          ],
                          "type": "object",
                        },
                        "pieces": {
                          "maximum": 9007199254740991,
                          "minimum": -9007199254740991,
                          "type": "integer",
                        },
                        "process": {
                          "additionalProperties": false,
                          "properties": {
                            "id": {
                              "type": "string",
                            },
                            "name": {
                              "type": "string",
                            },
                            "style_code": {
                              "type": "string",
                            },
                          },
                          "required": [
                            "id",
                            "name",
                            "style_code",
                          ],
                          "type": "object",
                        },
                        "unit_price": {
                          "additionalProperties": false,
                          "properties": {
                            "cents": {
                              "maximum": 9007199254740991,
                              "minimum": -9007199254740991,
                              "type": "integer",
                            },
                            "yuan": {
                              "type": "string",
                            },
                          },
                          "required": [
                            "cents",
                            "yuan",
                          ],
                          "type": "object",
                        },
                      },
                      "required": [
                        "process",
                        "unit_price",
                        "pieces",
                        "amount",
                      ],
                      "type": "object",
                    },
                    "type": "array",
                  },
                  "net_pay": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "piece_wage": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "pieces": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                },
                "required": [
                  "employee",
                  "pieces",
                  "piece_wage",
                  "allowances",
                  "deductions",
                  "net_pay",
                  "lines",
                  "adjustments",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "scope": {
              "enum": [
                "workshop",
                "own",
              ],
              "type": "string",
            },
            "time_zone": {
              "type": "string",
            },
            "today": {
              "type": "string",
            },
            "totals": {
              "additionalProperties": false,
              "properties": {
                "allowances": {
                  "additionalProperties": false,
                  "properties": {
                    "cents": {
                      "maximum": 9007199254740991,
                      "minimum": -9007199254740991,
                      "type": "integer",
                    },
                    "yuan": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "cents",
                    "yuan",
                  ],
                  "type": "object",
                },
                "deductions": {
                  "additionalProperties": false,
                  "properties": {
                    "cents": {
                      "maximum": 9007199254740991,
                      "minimum": -9007199254740991,
                      "type": "integer",
                    },
                    "yuan": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "cents",
                    "yuan",
                  ],
                  "type": "object",
                },
                "employees": {
                  "maximum": 9007199254740991,
                  "minimum": -9007199254740991,
                  "type": "integer",
                },
                "net_pay": {
                  "additionalProperties": false,
                  "properties": {
                    "cents": {
                      "maximum": 9007199254740991,
                      "minimum": -9007199254740991,
                      "type": "integer",
                    },
                    "yuan": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "cents",
                    "yuan",
                  ],
                  "type": "object",
                },
                "piece_wage": {
                  "additionalProperties": false,
                  "properties": {
                    "cents": {
                      "maximum": 9007199254740991,
                      "minimum": -9007199254740991,
                      "type": "integer",
                    },
                    "yuan": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "cents",
                    "yuan",
                  ],
                  "type": "object",
                },
                "pieces": {
                  "maximum": 9007199254740991,
                  "minimum": -9007199254740991,
                  "type": "integer",
                },
              },
              "required": [
                "employees",
                "pieces",
                "piece_wage",
                "allowances",
                "deductions",
                "net_pay",
              ],
              "type": "object",
            },
          },
          "required": [
            "month",
            "payslips",
            "totals",
            "scope",
            "next_cursor",
            "today",
            "time_zone",
          ],
          "type": "object",
        },
        "query_piece_records": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "groups": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "amount": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "key": {
                    "type": "string",
                  },
                  "label": {
                    "type": "string",
                  },
                  "pieces": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "records": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                },
                "required": [
                  "records",
                  "pieces",
                  "amount",
                  "key",
                  "label",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "next_cursor": {
              "type": [
                "string",
                "null",
              ],
            },
            "range": {
              "anyOf": [
                {
                  "additionalProperties": false,
                  "properties": {
                    "from": {
                      "type": "string",
                    },
                    "to": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "from",
                    "to",
                  ],
                  "type": "object",
                },
                {
                  "type": "null",
                },
              ],
            },
            "records": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "amount": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "employee": {
                    "additionalProperties": false,
                    "properties": {
                      "id": {
                        "type": "string",
                      },
                      "name": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "id",
                      "name",
                    ],
                    "type": "object",
                  },
                  "entered_by": {
                    "type": [
                      "string",
                      "null",
                    ],
                  },
                  "id": {
                    "type": "string",
                  },
                  "order": {
                    "additionalProperties": false,
                    "properties": {
                      "id": {
                        "type": "string",
                      },
                      "order_no": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "id",
                      "order_no",
                    ],
                    "type": "object",
                  },
                  "process": {
                    "additionalProperties": false,
                    "properties": {
                      "id": {
                        "type": "string",
                      },
                      "name": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "id",
                      "name",
                    ],
                    "type": "object",
                  },
                  "quantity": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "style": {
                    "additionalProperties": false,
                    "properties": {
                      "code": {
                        "type": "string",
                      },
                      "name": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "code",
                      "name",
                    ],
                    "type": "object",
                  },
                  "unit_price": {
                    "additionalProperties": false,
                    "properties": {
                      "cents": {
                        "maximum": 9007199254740991,
                        "minimum": -9007199254740991,
                        "type": "integer",
                      },
                      "yuan": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "cents",
                      "yuan",
                    ],
                    "type": "object",
                  },
                  "work_date": {
                    "type": "string",
                  },
                },
                "required": [
                  "id",
                  "work_date",
                  "employee",
                  "process",
                  "style",
                  "order",
                  "quantity",
                  "unit_price",
                  "amount",
                  "entered_by",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "scope": {
              "enum": [
                "workshop",
                "own",
              ],
              "type": "string",
            },
            "time_zone": {
              "type": "string",
            },
            "today": {
              "type": "string",
            },
            "totals": {
              "additionalProperties": false,
              "properties": {
                "amount": {
                  "additionalProperties": false,
                  "properties": {
                    "cents": {
                      "maximum": 9007199254740991,
                      "minimum": -9007199254740991,
                      "type": "integer",
                    },
                    "yuan": {
                      "type": "string",
                    },
                  },
                  "required": [
                    "cents",
                    "yuan",
                  ],
                  "type": "object",
                },
                "pieces": {
                  "maximum": 9007199254740991,
                  "minimum": -9007199254740991,
                  "type": "integer",
                },
                "records": {
                  "maximum": 9007199254740991,
                  "minimum": -9007199254740991,
                  "type": "integer",
                },
              },
              "required": [
                "records",
                "pieces",
                "amount",
              ],
              "type": "object",
            },
          },
          "required": [
            "records",
            "totals",
            "range",
            "scope",
            "next_cursor",
            "today",
            "time_zone",
          ],
          "type": "object",
        },
        "query_processes": {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "additionalProperties": false,
          "properties": {
            "next_cursor": {
              "type": [
                "string",
                "null",
              ],
            },
            "processes": {
              "items": {
                "additionalProperties": false,
                "properties": {
                  "active": {
                    "type": "boolean",
                  },
                  "id": {
                    "type": "string",
                  },
                  "name": {
                    "type": "string",
                  },
                  "style": {
                    "additionalProperties": false,
                    "properties": {
                      "code": {
                        "type": "string",
                      },
                      "id": {
                        "type": "string",
                      },
                      "name": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "id",
                      "code",
                      "name",
                    ],
                    "type": "object",
                  },
                  "unit_price_cents": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "unit_price_yuan": {
                    "type": "string",
                  },
                },
                "required": [
                  "id",
                  "name",
                  "style",
                  "unit_price_cents",
                  "unit_price_yuan",
                  "active",
                ],
                "type": "object",
              },
              "type": "array",
            },
            "total": {
              "maximum": 9007199254740991,
              "minimum": -9007199254740991,
              "type": "integer",
            },
          },
          "required": [
            "processes",
            "total",
            "next_cursor",
          ],
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

  it("marks business reads read-only and writes not, and offers prepare_order to a boss only", async () => {
    const byName = new Map(TOOLS.map((t) => [t.name, t]));
    for (const name of ["query_orders", "query_piece_records", "query_payroll", "query_processes", "query_employees"]) {
      expect(byName.get(name)?.annotations.readOnlyHint, name).toBe(true);
    }
    for (const name of ["prepare_piece_record", "prepare_order", "confirm_action", "cancel_action"]) {
      expect(byName.get(name)?.annotations.readOnlyHint, name).toBe(false);
    }
    expect(byName.get("confirm_action")?.description).toMatch(/never on your own initiative/i);
    const names = async (user: UserContext) => (await toolsFor(testContext(user))).tools.map((t) => t.name);
    expect(await names({ userId: "u-staff", tenantId: "t-jinxiu", role: "staff" })).not.toContain("prepare_order");
    expect(await names({ userId: "u-boss", tenantId: "t-jinxiu", role: "boss" })).toContain("prepare_order");
  });
});
