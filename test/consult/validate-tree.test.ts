import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { validateTreeFile } from "../../src/consult/validate-tree.ts";

const base = {
  id: "t",
  title: "Test tree",
  root: "a",
  nodes: {
    a: { response: "A?", options: [{ id: "x", description: "to b", next_node: "b" }] },
    b: { response: "B.", options: [] },
  },
};

const check = (tree: unknown, file = "t.json") => validateTreeFile(file, JSON.stringify(tree));

describe("tree validation", () => {
  it("accepts every shipped tree, and the tests' own, without warnings", async () => {
    expect(env.TEST_TREES.length).toBeGreaterThanOrEqual(1);
    for (const { file_name, content } of [...env.TEST_TREES, ...env.TEST_CONSULT_TREES]) {
      const report = await validateTreeFile(file_name, content);
      expect(report.errors, file_name).toEqual([]);
      expect(report.warnings, file_name).toEqual([]);
    }
  });

  it("reads YAML as well as JSON, to the same tree", async () => {
    const yaml =
      "id: t\ntitle: Test tree\nroot: a\nnodes:\n  a:\n    response: A?\n    options:\n      - { id: x, description: to b, next_node: b }\n  b:\n    response: B.\n    options: []\n";
    const fromYaml = await validateTreeFile("t.yaml", yaml);
    const fromJson = await check(base);
    expect(fromYaml.errors).toEqual([]);
    expect(fromYaml.tree?.nodes).toEqual(fromJson.tree?.nodes);
  });

  it("rejects a missing root", async () => {
    const report = await check({ ...base, root: "nowhere" });
    expect(report.tree).toBeNull();
    expect(report.errors).toEqual(["t.json: root 'nowhere' is not a node"]);
  });

  it("rejects a dangling next_node, naming file, node and option", async () => {
    const report = await check({
      ...base,
      nodes: { ...base.nodes, b: { response: "B", options: [{ id: "y", description: "?", next_node: "c" }] } },
    });
    expect(report.errors).toContain("t.json: node 'b': option 'y' leads to missing node 'c'");
  });

  it("rejects duplicate option ids within a node", async () => {
    const a = {
      response: "A",
      options: [
        { id: "x", description: "1", next_node: "b" },
        { id: "x", description: "2", next_node: "b" },
      ],
    };
    const report = await check({ ...base, nodes: { ...base.nodes, a } });
    expect(report.errors).toContain("t.json: node 'a': option id 'x' appears twice");
  });

  it("warns about unreachable nodes but keeps the tree", async () => {
    const report = await check({ ...base, nodes: { ...base.nodes, orphan: { response: "O", options: [] } } });
    expect(report.tree).not.toBeNull();
    expect(report.warnings).toEqual(["t.json: node 'orphan' cannot be reached from root 'a'"]);
  });

  it("rejects nodes with no way out that are not leaves", async () => {
    const loop = {
      a: { response: "A", options: [{ id: "x", description: "to b", next_node: "b" }] },
      b: { response: "B", options: [{ id: "y", description: "to a", next_node: "a" }] },
    };
    const report = await check({ ...base, nodes: loop });
    expect(report.errors).toEqual([
      "t.json: node 'a' has no way out: none of its paths reaches a leaf or an 'end'",
      "t.json: node 'b' has no way out: none of its paths reaches a leaf or an 'end'",
    ]);
  });

  it("rejects bad types, naming the node and field", async () => {
    const report = await check({ ...base, nodes: { ...base.nodes, b: { response: 42, options: [] } } });
    expect(report.tree).toBeNull();
    expect(report.errors[0]).toMatch(/^t\.json: node 'b' \(response\): /);
  });

  it("rejects the reserved option id provide_more_info", async () => {
    const a = { response: "A", options: [{ id: "provide_more_info", description: "more", next_node: "b" }] };
    const report = await check({ ...base, nodes: { ...base.nodes, a } });
    expect(report.errors[0]).toContain("reserved");
  });

  it("reports a file that does not parse", async () => {
    const report = await validateTreeFile("broken.yaml", "id: [unclosed");
    expect(report.errors[0]).toMatch(/^broken\.yaml: cannot be parsed as YAML/);
  });

  it("gives a new version when the content changes", async () => {
    const one = await check(base);
    const two = await check({ ...base, title: "Renamed" });
    expect(one.tree?.version).not.toBe(two.tree?.version);
  });
});
