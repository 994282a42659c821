// Stream parts for `MockLanguageModelV4`: the scripted model's steps in the chat tests.
import type { LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { convertArrayToReadableStream } from "ai/test";

export const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** One model call's answer: the parts after `stream-start`. */
export function step(...parts: LanguageModelV4StreamPart[]): LanguageModelV4StreamResult {
  return { stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([{ type: "stream-start", warnings: [] }, ...parts]) };
}

/** A text part streamed as the given deltas. */
export const text = (id: string, words: string[]): LanguageModelV4StreamPart[] => [
  { type: "text-start", id },
  ...words.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id, delta })),
  { type: "text-end", id },
];

/** A call of `toolName` with `input`. */
export const toolCall = (toolCallId: string, toolName: string, input: unknown): LanguageModelV4StreamPart => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/** The end of a step. */
export const finish = (unified: "stop" | "tool-calls"): LanguageModelV4StreamPart => ({
  type: "finish",
  usage: USAGE,
  finishReason: { unified, raw: undefined },
});
