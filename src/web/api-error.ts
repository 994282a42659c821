// A failed REST call as the UI sees it, apart from `fetch` so that the Worker tests can build one.

/** A failed request: the HTTP status, Weft's error code and its message (safe to show). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body: unknown, retryAfterSeconds?: number) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The `ApiError` for a failed response: Weft's `{ error: { code, message } }` body when there is one. */
export function errorOf(status: number, body: unknown, retryAfter: string | null): ApiError {
  const error = typeof body === "object" && body !== null && "error" in body ? (body as { error: unknown }).error : undefined;
  const fields = typeof error === "object" && error !== null ? (error as { code?: unknown; message?: unknown }) : {};
  const code = typeof fields.code === "string" ? fields.code : `http_${status}`;
  const message = typeof fields.message === "string" ? fields.message : `HTTP ${status}`;
  const seconds = retryAfter === null ? undefined : Number.parseInt(retryAfter, 10);
  return new ApiError(status, code, message, body, Number.isFinite(seconds) ? seconds : undefined);
}
