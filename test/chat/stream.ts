import { parseJsonEventStream, readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import { convertArrayToReadableStream } from "ai/test";

/** The UI message chunks of an SSE response, parsed by the `ai` package's own stream parser. */
export async function readChunks(res: Response): Promise<UIMessageChunk[]> {
  if (!res.body) throw new Error("no body");
  const chunks: UIMessageChunk[] = [];
  for await (const result of parseJsonEventStream({ stream: res.body, schema: uiMessageChunkSchema })) {
    if (!result.success) throw result.error;
    chunks.push(result.value);
  }
  return chunks;
}

/** The assistant message the chunks build, as `useChat` would show it. */
export async function assembled(chunks: UIMessageChunk[]): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: convertArrayToReadableStream(chunks) })) last = message;
  if (!last) throw new Error("no message in the stream");
  return last;
}

/** The text parts of a message, joined. */
export function textOf(message: UIMessage): string {
  return message.parts
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("")
    .trim();
}
