/**
 * Domain errors: a stable code, an HTTP status and a message that is safe to show a person or an
 * agent. They are mapped once to HTTP (`app.ts`) and once to MCP (`mcp/tool-result.ts`); anything
 * that is not an `AppError` is unexpected, logged, and answered with a generic message.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

export class AppError extends Error {
  readonly code: string;
  readonly status: ErrorStatus;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, status: ErrorStatus, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError("bad_request", 400, message, details);
export const unauthorized = (message: string) => new AppError("unauthorized", 401, message);
export const forbidden = (message: string) => new AppError("forbidden", 403, message);
export const notFound = (message: string) => new AppError("not_found", 404, message);
export const conflict = (message: string) => new AppError("conflict", 409, message);
export const gone = (message: string) => new AppError("gone", 410, message);

/** The JSON body every error response carries. */
export interface ErrorBody {
  error: { code: string; message: string; request_id?: string; details?: Record<string, unknown> };
}

export const GENERIC_MESSAGE = "Something went wrong on our side. Try again; if it keeps failing, report the request id.";
