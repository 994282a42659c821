import { createUIMessageStream, createUIMessageStreamResponse, type UIMessage, type UIMessageChunk } from "ai";

/** The chunks of one stored part, as the UI message stream first carried it. */
function chunksOf(part: UIMessage["parts"][number], index: number): UIMessageChunk[] {
  const id = `replay-${index}`;
  switch (part.type) {
    case "text":
      return [
        { type: "text-start", id },
        { type: "text-delta", id, delta: part.text },
        { type: "text-end", id },
      ];
    case "reasoning":
      return [
        { type: "reasoning-start", id },
        { type: "reasoning-delta", id, delta: part.text },
        { type: "reasoning-end", id },
      ];
    case "step-start":
      return [{ type: "start-step" }];
    case "source-url":
      return [{ type: "source-url", sourceId: part.sourceId, url: part.url, ...(part.title ? { title: part.title } : {}) }];
    case "file":
      return [{ type: "file", url: part.url, mediaType: part.mediaType }];
  }
  if (part.type.startsWith("data-")) {
    const data = part as { type: `data-${string}`; id?: string; data: unknown };
    return [{ type: data.type, ...(data.id ? { id: data.id } : {}), data: data.data }];
  }
  if ((part.type.startsWith("tool-") || part.type === "dynamic-tool") && "toolCallId" in part) {
    const call = part as {
      type: string;
      toolCallId: string;
      toolName?: string;
      state: string;
      input?: unknown;
      output?: unknown;
      errorText?: string;
    };
    const dynamic = part.type === "dynamic-tool";
    const toolName = dynamic ? (call.toolName ?? "") : part.type.slice("tool-".length);
    const input: UIMessageChunk = {
      type: "tool-input-available",
      toolCallId: call.toolCallId,
      toolName,
      input: call.input,
      ...(dynamic ? { dynamic } : {}),
    };
    if (call.state === "output-available") {
      return [
        input,
        { type: "tool-output-available", toolCallId: call.toolCallId, output: call.output, ...(dynamic ? { dynamic } : {}) },
      ];
    }
    if (call.state === "output-error") {
      return [
        input,
        {
          type: "tool-output-error",
          toolCallId: call.toolCallId,
          errorText: call.errorText ?? "",
          ...(dynamic ? { dynamic } : {}),
        },
      ];
    }
    return [input];
  }
  return [];
}

/**
 * A turn that is already done, answered again: its stored reply as a UI message stream, under the
 * reply's own id, part by part as it first streamed (without the time it took). `null` replies
 * with a turn that has no reply to give (the conversation went on past it): the stream only
 * starts and finishes.
 */
export function replayResponse(reply: UIMessage | null): Response {
  const stream = createUIMessageStream({
    execute({ writer }) {
      writer.write({ type: "start", ...(reply ? { messageId: reply.id } : {}) });
      (reply?.parts ?? []).forEach((part, index) => {
        for (const chunk of chunksOf(part, index)) writer.write(chunk);
      });
      writer.write({ type: "finish" });
    },
  });
  return createUIMessageStreamResponse({ stream });
}
