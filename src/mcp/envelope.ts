import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

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

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * Checks what the transport would misreport: valid JSON of the wrong shape is an Invalid Request
 * (-32600), not a parse error; an empty or oversized batch likewise; `tools/call` without a tool
 * name is Invalid Params (-32602) in one line. `null` when the body may go on to the server.
 */
export function checkEnvelope(body: unknown): JsonRpcError | null {
  const messages = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && body.length === 0)
    return jsonRpcError(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch.");
  if (messages.length > MAX_BATCH) {
    return jsonRpcError(null, ErrorCode.InvalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH} messages.`);
  }
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
    if (method === "tools/call" && typeof params?.name !== "string") {
      return jsonRpcError(
        idOf(message),
        ErrorCode.InvalidParams,
        `Invalid params${where}: tools/call needs params.name, a tool's name.`,
      );
    }
  }
  return null;
}
