import { z } from "zod";

/** Limits per entry and per import: enough for a workshop's FAQ, small enough to index in one request. */
export const FAQ_LIMITS = { questionLength: 500, similarQuestions: 50, answerLength: 10_000, importEntries: 1000 } as const;

/** One FAQ entry: a standard question, other ways people ask it, and the answer. */
export const FaqEntrySchema = z.strictObject({
  question: z.string().trim().min(1).max(FAQ_LIMITS.questionLength).describe("The standard question."),
  similar_questions: z
    .array(z.string().trim().min(1).max(FAQ_LIMITS.questionLength))
    .max(FAQ_LIMITS.similarQuestions)
    .default([])
    .describe("Other ways people ask the same thing."),
  answer: z.string().trim().min(1).max(FAQ_LIMITS.answerLength).describe("The answer search returns as content."),
});

/** `POST .../faq/import` as JSON: entries are checked one by one, so one bad entry fails alone. */
export const FaqImportSchema = z.strictObject({
  entries: z.array(z.unknown()).min(1).max(FAQ_LIMITS.importEntries),
});
