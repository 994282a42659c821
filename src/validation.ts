import { z } from "zod";

/**
 * "field: problem; other.field: problem": what a person or agent needs to fix a request. A problem
 * of the whole value (an unknown key, a wrong type) is named by `whole`: a REST body, a tool's arguments.
 */
export function describeIssues(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  whole = "(body)",
): string {
  return error.issues
    .slice(0, 20)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join(".") : whole}: ${issue.message}`)
    .join("; ");
}

/**
 * `z.record`, refusing a `__proto__` key with an issue at that key. `JSON.parse` makes it an own
 * key, and zod's record skips it without a word (rightly: assigning it would replace the result's
 * prototype), so a header or argument sent under that name would otherwise vanish silently.
 *
 * @example ownRecord(z.string(), z.string()) // {"__proto__":"x"} → "__proto__: this name is reserved"
 */
export function ownRecord<K extends z.core.$ZodRecordKey, V extends z.core.SomeType>(key: K, value: V) {
  return z
    .unknown()
    .superRefine((input, ctx) => {
      if (typeof input === "object" && input !== null && Object.hasOwn(input, "__proto__")) {
        ctx.addIssue({ code: "custom", path: ["__proto__"], message: "this name is reserved" });
      }
    })
    .pipe(z.record(key, value));
}
