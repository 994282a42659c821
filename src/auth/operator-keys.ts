import { randomKey } from "./random-token.ts";

/**
 * A fresh key for the deployment's operator: `wop_` and 32 URL-safe characters (192 bits), so it
 * never reads as a workshop's `wft_` key. Apart from the operator's middleware, so that
 * `npm run operator:create` runs it in Node.
 */
export function generateOperatorKey(): string {
  return randomKey("wop_");
}

/** The deployment's operator, as the admin routes see them: which key, by its id and visible prefix. */
export interface Operator {
  keyId: string;
  prefix: string;
}
