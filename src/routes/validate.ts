import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { refusal } from "../validation.ts";
import { readJsonBody } from "./json-body.ts";

// Where a bad field was, as a client reads it: valid JSON with a bad field is not "invalid json".
const PLACES = new Map<string, string>([
  ["json", "request body"],
  ["query", "query string"],
  ["param", "path"],
  ["form", "form data"],
  ["header", "headers"],
]);

/**
 * `zValidator` that fails with the app's 400 error, naming each bad field. A JSON body is read
 * first by `readJsonBody`, so a wrong Content-Type or malformed JSON is answered as what it is
 * (415, 400 `invalid_json`) rather than as missing fields or a server error.
 *
 * @example route.post("/", validate("json", CreateKeySchema), (c) => c.req.valid("json"))
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const check = zValidator(target, schema, function onInvalid(result) {
    if (!result.success) throw refusal(`Invalid ${PLACES.get(target) ?? target}`, result.error);
  });
  if (target !== "json") return check;
  // The body is read and checked here rather than by `check`, which would parse the text again.
  const checkJson: typeof check = async function checkJson(c, next) {
    const parsed = await schema.safeParseAsync(await readJsonBody(c));
    if (!parsed.success) throw refusal(`Invalid ${PLACES.get(target)}`, parsed.error);
    c.req.addValidatedData("json", parsed.data as object);
    await next();
  };
  return checkJson;
}
