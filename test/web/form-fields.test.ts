import { describe, expect, it } from "vitest";
import { formArguments, formFields, formSubmissionText } from "../../src/web/form-fields.ts";

// The schema the chat sends with a form: the cutting-room server's book_cutting (test/federation/chat-forms.test.ts).
const SCHEMA = {
  type: "object",
  properties: {
    note: { type: "string", description: "for the cutter" },
    style: { type: "string", description: "style code" },
    pieces: { type: "integer", description: "how many pieces" },
    rush: { type: "boolean" },
    fabric: { type: "string", enum: ["cotton", "denim"] },
    layout: { type: "object", properties: { layers: { type: "integer" } }, description: "the lay" },
    width: { type: ["number", "null"] },
  },
  required: ["style", "pieces", "rush", "fabric", "layout"],
};

describe("a form from a tool's JSON Schema", () => {
  it("gives each property an input of its kind, required ones first, holding what the model filled", () => {
    const fields = formFields(SCHEMA, { style: "A01", layout: { layers: 40 } });
    expect(fields.map((f) => [f.name, f.kind, f.required, f.initial])).toEqual([
      ["style", "text", true, "A01"],
      ["pieces", "integer", true, ""],
      ["rush", "boolean", true, false],
      ["fabric", "choice", true, ""],
      ["layout", "json", true, '{\n  "layers": 40\n}'],
      ["note", "text", false, ""],
      ["width", "number", false, ""],
    ]);
    expect(fields.find((f) => f.name === "fabric")?.choices).toEqual(["cotton", "denim"]);
  });

  it("turns the inputs into the tool's arguments, leaving out empty optional fields", () => {
    const fields = formFields(SCHEMA, {});
    const inputs = new Map<string, string | boolean>([
      ["style", " A01 "],
      ["pieces", "120"],
      ["rush", true],
      ["fabric", "1"],
      ["layout", '{"layers": 40, "marker": "M-2"}'],
    ]);
    const result = formArguments(fields, inputs);
    expect(result).toEqual({
      ok: true,
      args: { style: " A01 ", pieces: 120, rush: true, fabric: "denim", layout: { layers: 40, marker: "M-2" } },
    });
    if (result.ok) {
      expect(formSubmissionText("mcp_forms_book_cutting", result.args)).toBe(
        'mcp_forms_book_cutting {"style":" A01 ","pieces":120,"rush":true,"fabric":"denim","layout":{"layers":40,"marker":"M-2"}}',
      );
    }
  });

  it("says which fields are missing or not what they should be", () => {
    const fields = formFields(SCHEMA, {});
    const inputs = new Map<string, string | boolean>([
      ["pieces", "12.5"],
      ["layout", "{layers: 40"],
      ["width", "wide"],
    ]);
    const result = formArguments(fields, inputs);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(Object.fromEntries(result.problems)).toEqual({
        style: "required",
        pieces: "integer",
        fabric: "required",
        layout: "json",
        width: "number",
      });
    }
  });

  it("keeps a field named __proto__ an ordinary argument", () => {
    const odd = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    const fields = formFields(odd, {});
    const result = formArguments(fields, new Map([["__proto__", "x"]]));
    expect(result.ok && Object.hasOwn(result.args, "__proto__")).toBe(true);
    expect(result.ok && JSON.stringify(result.args)).toBe('{"__proto__":"x"}');
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
  });
});
