import { AppError } from "../errors.ts";

/**
 * A failure of an external MCP server (unreachable, slow, too large, erroring): 502, with the
 * `details` the proxy's error bodies carry. `statusCode` is the upstream's HTTP status when it
 * answered one, `rpcCode` the code of the JSON-RPC error it answered.
 */
export function upstreamError(
  message: string,
  {
    statusCode,
    rpcCode,
    retryable = true,
    cause,
  }: { statusCode?: number; rpcCode?: number; retryable?: boolean; cause?: unknown } = {},
): AppError {
  return new AppError("upstream_failed", message, {
    details: {
      is_upstream: true,
      status_code: statusCode ?? null,
      retryable,
      ...(rpcCode === undefined ? {} : { rpc_code: rpcCode }),
    },
    retryable,
    cause,
  });
}

/** Whether `error` is a JSON-RPC error the server answered (it was reached, and refused the request). */
export function isAnsweredRpcError(error: unknown): boolean {
  return error instanceof AppError && typeof error.details?.rpc_code === "number";
}
