import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { describeIssues } from "../validation.ts";

export interface JsonRpcError {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

/** A JSON-RPC error response. */
export function jsonRpcError(id: string | number | null, code: number, message: string): JsonRpcError {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** The most messages one batch may carry (the SDK's own bound is larger). */
export const MAX_BATCH = 50;

/**
 * The methods Weft serves, each with the SDK's schema of its request. The SDK checks params only
 * inside its handler, where a mismatch becomes -32603 with a multi-line zod dump; checked here it
 * is what it is, the client's Invalid Params.
 */
const SERVED_METHODS = new Map<string, z.ZodType>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** A request's id, or `null` for a message that is not a request (a notification has no id, a response no method). */
export function requestIdOf(message: unknown): string | number | null {
  return typeof (message as { method?: unknown } | null)?.method === "string" ? idOf(message) : null;
}

/**
 * Checks what the transport would misreport: valid JSON of the wrong shape is an Invalid Request
 * (-32600), not a parse error; an empty or oversized batch likewise, and a batch in which two
 * requests share an id (the transport would run both and answer one); `tools/call` without a tool
 * name, or any served method's malformed params, is Invalid Params (-32602) in one line. `null`
 * when the body may go on to the server.
 */
export function checkEnvelope(body: unknown): JsonRpcError | null {
  const messages = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && body.length === 0)
    return jsonRpcError(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch.");
  if (messages.length > MAX_BATCH) {
    return jsonRpcError(null, ErrorCode.InvalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH} messages.`);
  }
  const requestIds = new Map<string | number, number>();
  for (const [index, message] of messages.entries()) {
    const where = Array.isArray(body) ? ` (batch item ${index})` : "";
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      return jsonRpcError(
        idOf(message),
        ErrorCode.InvalidRequest,
        `Invalid Request${where}: expected a JSON-RPC 2.0 message ("jsonrpc": "2.0", a string or number "id", a string "method").`,
      );
    }
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    const id = requestIdOf(message);
    if (id !== null) {
      const first = requestIds.get(id);
      if (first !== undefined) {
        return jsonRpcError(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request: batch items ${first} and ${index} share the id ${JSON.stringify(id).slice(0, 80)}; give each request its own id.`,
        );
      }
      requestIds.set(id, index);
    }
    if (method === "tools/call" && typeof params?.name !== "string") {
      return jsonRpcError(
        idOf(message),
        ErrorCode.InvalidParams,
        `Invalid params${where}: tools/call needs params.name, a tool's name.`,
      );
    }
    const schema = typeof method === "string" ? SERVED_METHODS.get(method) : undefined;
    const checked = schema?.safeParse(message);
    if (checked && !checked.success) {
      return jsonRpcError(idOf(message), ErrorCode.InvalidParams, `Invalid params${where}: ${describeIssues(checked.error)}.`);
    }
  }
  return null;
}
