import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { badRequest } from "../errors.ts";
import { describeIssues } from "../validation.ts";

/**
 * `zValidator` that fails with the app's 400 error, naming each bad field.
 *
 * @example route.post("/", validate("json", CreateKeySchema), (c) => c.req.valid("json"))
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, function onInvalid(result) {
    if (!result.success) throw badRequest(`Invalid ${target}: ${describeIssues(result.error)}`);
  });
}
