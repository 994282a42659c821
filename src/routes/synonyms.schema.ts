import { z } from "zod";
import { SYNONYM_LIMITS } from "../search/synonyms.ts";
import { printableName } from "../validation.ts";

const Word = z
  .string()
  .superRefine(printableName)
  .trim()
  .min(1)
  .max(SYNONYM_LIMITS.wordLength)
  .regex(/^[\p{L}\p{N}]+(?:[ -][\p{L}\p{N}]+)*$/u, "letters and digits, words joined by single spaces or hyphens");

/** `PUT /api/synonyms`: the workshop's whole list of equivalence groups. */
export const PutSynonymsSchema = z.strictObject({
  groups: z
    .array(z.array(Word).min(2).max(SYNONYM_LIMITS.wordsPerGroup))
    .max(SYNONYM_LIMITS.groups)
    .describe("Equivalence groups; the first word of each is its canonical form."),
});
