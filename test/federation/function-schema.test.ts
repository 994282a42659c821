import { describe, expect, it } from "vitest";
import { type Conversion, convertToFunctionSchema } from "../../src/federation/function-schema.ts";
import { toStrictSchema } from "../../src/federation/strict-schema.ts";
import type { JsonSchema } from "../../src/shapes.ts";
import realSchemas from "./fixtures/real-server-schemas.json";

function converted(schema: unknown, options = {}): Extract<Conversion, { ok: true }> {
  const result = convertToFunctionSchema(schema, options);
  if (!result.ok) throw new Error(`conversion failed: ${result.reason}`);
  // Plain JSON out: no shared or circular objects, whatever came in.
  expect(JSON.parse(JSON.stringify(result.parameters))).toEqual(result.parameters);
  return result;
}

const node = {
  $defs: {
    Node: {
      type: "object",
      properties: { value: { type: "string" }, child: { $ref: "#/$defs/Node" } },
    },
  },
  properties: { root: { $ref: "#/$defs/Node" } },
};

describe("convertToFunctionSchema", () => {
  it("turns the seed's recursive example into the seed's output", () => {
    const { parameters, pruned } = converted(node);
    expect(parameters).toEqual({
      type: "object",
      properties: {
        root: {
          type: "object",
          properties: { value: { type: "string" }, child: { type: "object" } },
        },
      },
    });
    expect(pruned).toEqual([
      { path: "#/properties/root/properties/child", reason: "cycle", detail: expect.stringContaining("#/$defs/Node") },
    ]);
  });

  it("passes a simple schema through unchanged", () => {
    const schema = {
      type: "object",
      properties: { q: { type: "string", description: "query", minLength: 1 }, n: { type: "integer", maximum: 5 } },
      required: ["q"],
    };
    expect(converted(schema).parameters).toEqual(schema);
    expect(converted(schema).pruned).toEqual([]);
  });

  it("resolves draft-07 definitions and OpenAPI component references through the same resolver", () => {
    const draft7 = converted({
      definitions: { Color: { type: "string", enum: ["red", "blue"], description: "a colour" } },
      properties: { c: { $ref: "#/definitions/Color" } },
    });
    expect(draft7.parameters.properties).toEqual({ c: { type: "string", enum: ["red", "blue"], description: "a colour" } });
    const spec = { components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } } };
    const openApi = converted({ type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" } } }, { document: spec });
    expect(openApi.parameters.properties).toEqual({ pet: { type: "object", properties: { name: { type: "string" } } } });
  });

  it("cuts mutual recursion where it comes back round", () => {
    const { parameters, pruned } = converted({
      $defs: {
        A: { type: "object", description: "an A", properties: { b: { $ref: "#/$defs/B" } } },
        B: { type: "object", properties: { a: { $ref: "#/$defs/A" }, label: { type: "string" } } },
      },
      properties: { start: { $ref: "#/$defs/A" } },
    });
    expect(parameters.properties).toEqual({
      start: {
        type: "object",
        description: "an A",
        properties: {
          b: { type: "object", properties: { a: { type: "object", description: "an A" }, label: { type: "string" } } },
        },
      },
    });
    expect(pruned.map((p) => p.reason)).toEqual(["cycle"]);
  });

  it("inlines three references deep and cuts the fourth, keeping type and description", () => {
    const { parameters, pruned } = converted({
      $defs: {
        L1: { type: "object", properties: { next: { $ref: "#/$defs/L2" } } },
        L2: { type: "object", properties: { next: { $ref: "#/$defs/L3" } } },
        L3: { type: "object", properties: { next: { $ref: "#/$defs/L4" } } },
        L4: { type: "object", description: "the fourth", properties: { deep: { type: "string" } } },
      },
      properties: { l1: { $ref: "#/$defs/L1" } },
    });
    expect(parameters.properties).toEqual({
      l1: {
        type: "object",
        properties: {
          next: {
            type: "object",
            properties: { next: { type: "object", properties: { next: { type: "object", description: "the fourth" } } } },
          },
        },
      },
    });
    expect(pruned).toEqual([expect.objectContaining({ reason: "depth" })]);
  });

  it("honours a different depth limit", () => {
    const { parameters } = converted(node, { maxDepth: 0 });
    expect(parameters.properties).toEqual({ root: { type: "object" } });
  });

  it("reports a missing definition and keeps what the reference said about itself", () => {
    const { parameters, pruned } = converted({
      properties: { x: { $ref: "#/$defs/Nowhere", description: "an x" }, y: { $ref: "https://example.com/s.json" } },
    });
    expect(parameters.properties).toEqual({ x: { description: "an x" }, y: {} });
    expect(pruned.map((p) => [p.path, p.reason])).toEqual([
      ["#/properties/x", "missing_ref"],
      ["#/properties/y", "unsupported_ref"],
    ]);
  });

  it("turns const into enum and oneOf into anyOf, and drops what function calls do not take", () => {
    const { parameters, pruned } = converted({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        kind: { const: "circle" },
        shape: { oneOf: [{ type: "string" }, { type: "number" }] },
        tags: { type: "array", items: { type: "string" }, contains: { const: "a" } },
        extra: { type: "object", patternProperties: { "^x": { type: "string" } } },
      },
      if: { required: ["kind"] },
      else: { required: ["shape"] },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: {
        kind: { enum: ["circle"] },
        shape: { anyOf: [{ type: "string" }, { type: "number" }] },
        tags: { type: "array", items: { type: "string" } },
        extra: { type: "object" },
      },
    });
    expect(pruned.map((p) => p.path).sort()).toEqual([
      "#/else",
      "#/if",
      "#/properties/extra/patternProperties",
      "#/properties/tags/contains",
    ]);
  });

  it("cuts inline nesting past its bound instead of overflowing the stack", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 10_000; i++) deep = { type: "object", properties: { d: deep } };
    const { pruned } = converted(deep);
    expect(pruned).toEqual([expect.objectContaining({ reason: "nesting" })]);
  });

  it("bounds the fan-out of definitions that each refer to the next many times", () => {
    const defs: Record<string, unknown> = { D3: { type: "string" } };
    for (const [name, next] of [
      ["D2", "D3"],
      ["D1", "D2"],
      ["D0", "D1"],
    ] as const) {
      defs[name] = {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { $ref: `#/$defs/${next}` }])),
      };
    }
    const { pruned } = converted({ $defs: defs, properties: { root: { $ref: "#/$defs/D0" } } });
    expect(pruned.some((p) => p.reason === "size")).toBe(true);
  });

  it("treats __proto__ and constructor as ordinary property names", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}}}');
    const { parameters } = converted(schema);
    expect(Object.keys(parameters.properties as object)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it("never throws, and says why it cannot convert what is not an object schema", () => {
    for (const bad of [null, "text", 42, [], { type: "string" }, { type: "array", items: {} }]) {
      const result = convertToFunctionSchema(bad);
      expect(result.ok).toBe(false);
    }
    expect(converted({}).parameters).toEqual({ type: "object", properties: {} });
    const selfRoot = converted({ type: "object", properties: { again: { $ref: "#" } } });
    expect(selfRoot.parameters.properties).toEqual({ again: { type: "object", properties: { again: { type: "object" } } } });
  });

  it("converts every tool of the reference everything, filesystem and GitHub servers", () => {
    const servers = realSchemas as Record<string, Record<string, JsonSchema>>;
    let count = 0;
    for (const [server, tools] of Object.entries(servers)) {
      for (const [tool, schema] of Object.entries(tools)) {
        const result = converted(schema);
        expect(result.parameters.type, `${server}/${tool}`).toBe("object");
        expect(
          result.pruned.filter((p) => p.reason !== "keyword"),
          `${server}/${tool}`,
        ).toEqual([]);
        count++;
      }
    }
    expect(count).toBe(53);
    const review = converted(servers.github?.create_pull_request_review).parameters;
    expect(JSON.stringify(review)).not.toContain("$schema");
  });
});

describe("toStrictSchema", () => {
  it("closes objects and makes optional properties nullable", () => {
    const { parameters } = converted({
      type: "object",
      properties: {
        q: { type: "string" },
        n: { type: "integer", default: 3 },
        mode: { enum: ["a", "b"] },
        filter: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] },
      },
      required: ["q"],
    });
    const strict = toStrictSchema(parameters);
    expect(strict).toEqual({
      ok: true,
      parameters: {
        type: "object",
        properties: {
          q: { type: "string" },
          n: { type: ["integer", "null"] },
          mode: { anyOf: [{ enum: ["a", "b"] }, { type: "null" }] },
          filter: {
            type: ["object", "null"],
            properties: { tag: { type: "string" } },
            required: ["tag"],
            additionalProperties: false,
          },
        },
        required: ["q", "n", "mode", "filter"],
        additionalProperties: false,
      },
    });
  });

  it("is refused for free-form objects, pruned branches and allOf", () => {
    expect(toStrictSchema(converted(node).parameters)).toEqual({
      ok: false,
      reason: expect.stringContaining("without declared properties"),
    });
    expect(
      toStrictSchema({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" } } } }).ok,
    ).toBe(false);
    expect(toStrictSchema({ type: "object", properties: { a: { allOf: [{ type: "string" }] } } }).ok).toBe(false);
  });

  it("produces a strict variant for most real servers' tools", () => {
    const servers = realSchemas as Record<string, Record<string, JsonSchema>>;
    const outcomes = Object.values(servers).flatMap((tools) =>
      Object.values(tools).map((s) => toStrictSchema(converted(s).parameters).ok),
    );
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(outcomes.length / 2);
  });
});
