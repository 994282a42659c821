import { describe, expect, it } from "vitest";
import { actionIdOfPath } from "../../src/web/confirm-page-path.ts";

describe("the confirm page's address", () => {
  it("names an action by its 64 hex digits, and nothing else", () => {
    const id = "0123456789abcdef".repeat(4);
    expect(actionIdOfPath(`/actions/${id}`)).toBe(id);
    expect(actionIdOfPath(`/actions/${id}/`)).toBe(id);
    expect(actionIdOfPath("/")).toBeNull();
    expect(actionIdOfPath(`/actions/${id.toUpperCase()}`)).toBeNull();
    expect(actionIdOfPath(`/actions/${id}x`)).toBeNull();
    expect(actionIdOfPath("/actions/__proto__")).toBeNull();
  });
});
