import { UI_MESSAGE_STREAM_HEADERS } from "ai";

const encoder = new TextEncoder();

/**
 * One chunk of the UI message stream as a Server-Sent Event, under its number in the reply: the
 * `id` a client sends back as `Last-Event-ID` to go on from there.
 */
export function sseEvent(seq: number, json: string): Uint8Array {
  return encoder.encode(`id: ${seq}\ndata: ${json}\n\n`);
}

/** The event that ends a UI message stream, as the AI SDK writes it. */
export const SSE_DONE = encoder.encode("data: [DONE]\n\n");

/** A UI message stream response over SSE, with the AI SDK's headers. */
export function sseResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
}

/**
 * The event a client last received, from `Last-Event-ID` (as `EventSource` sends it on reconnecting);
 * `-1` (from the start) when absent. Anything but a plain number is the client's mistake.
 */
export function lastEventId(header: string | undefined): number | null {
  if (header === undefined || header.trim() === "") return -1;
  return /^\d{1,9}$/.test(header.trim()) ? Number(header.trim()) : null;
}
