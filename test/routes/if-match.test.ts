import { describe, expect, it } from "vitest";
import { etagOf, ifMatchVersions } from "../../src/routes/if-match.ts";

describe("If-Match", () => {
  it("reads the versions of strong entity tags, in a list, and no condition for '*' or no header", () => {
    expect(ifMatchVersions(etagOf(3))).toEqual([3]);
    expect(ifMatchVersions(' "3" ,"12",')).toEqual([3, 12]);
    expect(ifMatchVersions(', "3",, ')).toEqual([3]);
    expect(ifMatchVersions("*")).toBeUndefined();
    expect(ifMatchVersions(undefined)).toBeUndefined();
  });

  it("lets weak tags and tags Weft never issued match no version", () => {
    expect(ifMatchVersions('W/"3"')).toEqual([]);
    expect(ifMatchVersions('"abc", "03", "a,b", "99999999999999999"')).toEqual([]);
  });

  it("refuses what is not a list of entity tags with a 400 that says what to send", () => {
    for (const header of ["3", '"3', '"3" "4"', "", " ", "W/3", '"3" x']) {
      expect(() => ifMatchVersions(header), header).toThrow(expect.objectContaining({ code: "bad_request" }));
    }
    expect(() => ifMatchVersions("3")).toThrow(/such as "3"/);
  });
});
