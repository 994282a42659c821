import { describe, expect, it } from "vitest";
import { LruMap } from "../src/lru-map.ts";

describe("LruMap", () => {
  it("forgets the least recently used entry to make room, reads and writes counting as use", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1);
    map.set("c", 3);
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBe(1);
    map.set("c", 30);
    map.set("d", 4);
    expect([map.get("a"), map.get("c"), map.get("d")]).toEqual([undefined, 30, 4]);
    map.delete("c");
    map.clear();
    expect(map.get("d")).toBeUndefined();
  });

  it("with a budget, forgets the least recently used entries while their weights sum past it", () => {
    const map = new LruMap<string, string[]>(10, { weigh: (v) => v.length, budget: 5 });
    map.set("a", ["x", "y"]);
    map.set("b", ["x", "y"]);
    expect(map.get("a")).toEqual(["x", "y"]);
    map.set("c", ["x", "y", "z"]);
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([["x", "y"], undefined, ["x", "y", "z"]]);
    // Set again lighter, an entry frees its weight.
    map.set("c", ["x"]);
    map.set("d", ["x", "y"]);
    expect(map.size).toBe(3);
    // The newest entry stays, even alone past the budget.
    map.set("e", ["1", "2", "3", "4", "5", "6"]);
    expect([map.size, map.get("e")?.length]).toEqual([1, 6]);
  });
});
