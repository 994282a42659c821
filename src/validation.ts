import { z } from "zod";
import { AppError } from "./errors.ts";
import { firstUnprintable } from "./printable.ts";

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

/**
 * Refuses a name holding a control or bidirectional formatting character (`printable.ts`), naming
 * its position in the name as sent. Put it before `.trim()`, so positions count what the client
 * wrote; `refusal` answers a body whose only problems are such names 422 `unprintable_name`.
 *
 * @example z.string().superRefine(printableName).trim().min(1).max(100)
 */
export function printableName(value: string, ctx: z.RefinementCtx<string>): void {
  const found = firstUnprintable(value);
  if (!found) return;
  ctx.addIssue({
    code: "custom",
    message: `character ${found.position} is ${found.codePoint}, a control or bidirectional formatting character, which names may not contain`,
    params: { unprintable: true },
    continue: false,
  });
}

/**
 * The error for a value that failed its schema, naming each problem: 422 `unprintable_name` when
 * every problem is a name `printableName` refused, `code` (a 400) otherwise.
 */
export function refusal(
  what: string,
  error: { issues: readonly z.core.$ZodIssue[] },
  code: "bad_request" | "invalid_input" = "bad_request",
): AppError {
  const message = `${what}: ${describeIssues(error)}`;
  const unprintable = error.issues.every((issue) => issue.code === "custom" && issue.params?.unprintable === true);
  return new AppError(unprintable ? "unprintable_name" : code, message);
}
