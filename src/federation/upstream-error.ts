import { AppError } from "../errors.ts";

/**
 * A failure of an external MCP server (unreachable, slow, too large, erroring): 502, with the
 * `details` the proxy's error bodies carry. `statusCode` is the upstream's HTTP status when it
 * answered one.
 */
export function upstreamError(
  message: string,
  { statusCode, retryable = true, cause }: { statusCode?: number; retryable?: boolean; cause?: unknown } = {},
): AppError {
  return new AppError("upstream_failed", message, {
    details: { is_upstream: true, status_code: statusCode ?? null, retryable },
    retryable,
    cause,
  });
}
