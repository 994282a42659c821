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
      }
    `);
  });

  it("pins each tool's output schema", () => {
    const schemas = Object.fromEntries(
      TOOLS.map((t) => [t.name, t.outputSchema ? z.toJSONSchema(t.outputSchema, { io: "output" }) : null]),
    );
    expect(schemas).toMatchInlineSnapshot(`
      {
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
                  "position": {
                    "maximum": 9007199254740991,
                    "minimum": -9007199254740991,
                    "type": "integer",
                  },
                  "score": {
                    "type": "number",
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
});
