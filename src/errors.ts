/**
 * Every error Weft answers on purpose has a code from this table. The table is the only place a
 * code meets its HTTP status; `app.ts` turns an `AppError` into an HTTP body and
 * `tools/run-tool.ts` into a tool error, for both faces. Anything that is not an `AppError` is
 * unexpected: logged with the request id and answered with `GENERIC_MESSAGE`.
 */
const STATUS = {
  bad_request: 400,
  invalid_json: 400,
  invalid_input: 400,
  invalid_option: 400,
  unsafe_url: 400,
  request_state_invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  confirmation_required: 403,
  not_found: 404,
  knowledge_base_not_found: 404,
  session_unknown: 404,
  unknown_name: 404,
  action_unknown: 404,
  method_not_allowed: 405,
  conflict: 409,
  ambiguous_name: 409,
  action_not_confirmable: 409,
  action_stale: 409,
  action_in_progress: 409,
  session_complete: 409,
  gone: 410,
  session_expired: 410,
  action_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  invalid_tree: 422,
  reserved_name: 422,
  unprintable_name: 422,
  unparseable_document: 422,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
  schema_behind: 503,
  misconfigured: 503,
  workshop_moving: 503,
  no_trees: 503,
  upstream_timeout: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS;
export type ErrorStatus = (typeof STATUS)[ErrorCode];

/** The HTTP status of a code. */
export function statusOf(code: ErrorCode): ErrorStatus {
  return STATUS[code];
}

/** Whether `value` is one of the codes above (for codes that crossed an RPC boundary as strings). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(STATUS, value);
}

/** A failure whose message is safe to show a person or an agent; `cause` is for logs only. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly #retryable: boolean | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown; retryable?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.#retryable = options.retryable;
  }

  get status(): ErrorStatus {
    return STATUS[this.code];
  }

  /**
   * Server-side failures (5xx) may succeed when tried again, and so may an answer that says when
   * to ask again (`retry_after_seconds`: past a limit, a write in progress); a client's mistake
   * will not. An upstream's failure says for itself (a server that refuses Weft's credentials will
   * go on refusing).
   */
  get retryable(): boolean {
    return this.#retryable ?? (this.status >= 500 || this.status === 429 || this.details?.retry_after_seconds !== undefined);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError("bad_request", message, details ? { details } : {});
export const unauthorized = (message: string) => new AppError("unauthorized", message);
export const forbidden = (message: string) => new AppError("forbidden", message);
export const notFound = (message: string) => new AppError("not_found", message);
export const conflict = (message: string) => new AppError("conflict", message);

/** The JSON body every error response carries. */
export interface ErrorBody {
  error: { code: string; message: string; request_id?: string; details?: Record<string, unknown> };
}

export const GENERIC_MESSAGE = "Something went wrong on our side. Try again; if it keeps failing, report the request id.";
