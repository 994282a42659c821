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
});
