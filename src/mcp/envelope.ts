import { type SpecTypeName, specTypeSchemas } from "@modelcontextprotocol/server";
import { describeIssues } from "../validation.ts";

export interface JsonRpcError {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

/** The JSON-RPC error codes Weft answers itself, before the SDK sees a request. */
export const JSONRPC_ERRORS = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602 } as const;

/** A JSON-RPC error response. */
export function jsonRpcError(id: string | number | null, code: number, message: string): JsonRpcError {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/**
 * The methods Weft serves whose params the SDK would check only inside its handler, where a
 * mismatch becomes -32603 with a multi-line dump; checked here it is what it is, the client's
 * Invalid Params, in one line.
 */
const SERVED_METHODS = new Map<string, SpecTypeName>([
  ["initialize", "InitializeRequest"],
  ["tools/list", "ListToolsRequest"],
  ["tools/call", "CallToolRequest"],
  ["resources/list", "ListResourcesRequest"],
  ["resources/read", "ReadResourceRequest"],
  ["prompts/list", "ListPromptsRequest"],
  ["prompts/get", "GetPromptRequest"],
  ["completion/complete", "CompleteRequest"],
]);

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Whether a value is a JSON-RPC 2.0 request, notification or response, by its shape alone. */
function isJsonRpcMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return false;
  const { jsonrpc, id, method } = message as Record<string, unknown>;
  if (jsonrpc !== "2.0") return false;
  if (id !== undefined && typeof id !== "string" && typeof id !== "number") return false;
  if (method !== undefined) return typeof method === "string";
  return id !== undefined && ("result" in message || "error" in message);
}

/**
 * Checks what the transport would misreport: valid JSON of the wrong shape is an Invalid Request
 * (-32600), not a parse error; so is a batch (JSON-RPC batching left MCP in 2025-06-18, and no
 * revision Weft serves has it); `tools/call` without a tool name, or any served method's
 * malformed params, is Invalid Params (-32602) in one line. `null` when the body may go on to the
 * server.
 */
export function checkEnvelope(message: unknown): JsonRpcError | null {
  if (Array.isArray(message)) {
    return jsonRpcError(
      null,
      JSONRPC_ERRORS.invalidRequest,
      "Invalid Request: JSON-RPC batches are not part of MCP since revision 2025-06-18; send one message a request.",
    );
  }
  if (!isJsonRpcMessage(message)) {
    return jsonRpcError(
      idOf(message),
      JSONRPC_ERRORS.invalidRequest,
      'Invalid Request: expected a JSON-RPC 2.0 message ("jsonrpc": "2.0", a string or number "id", a string "method").',
    );
  }
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method === "tools/call" && typeof params?.name !== "string") {
    return jsonRpcError(
      idOf(message),
      JSONRPC_ERRORS.invalidParams,
      "Invalid params: tools/call needs params.name, a tool's name.",
    );
  }
  const type = typeof method === "string" ? SERVED_METHODS.get(method) : undefined;
  if (!type) return null;
  const checked = specTypeSchemas[type]["~standard"].validate(message);
  if (checked instanceof Promise || !checked.issues) return null;
  const issues = checked.issues.map((issue) => ({
    path: (issue.path ?? []).map((step) => (typeof step === "object" ? step.key : step)),
    message: issue.message,
  }));
  return jsonRpcError(idOf(message), JSONRPC_ERRORS.invalidParams, `Invalid params: ${describeIssues({ issues })}.`);
}
