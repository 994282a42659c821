import { AppError, type ErrorCode, isErrorCode } from "./errors.ts";

/**
 * What a Durable Object method answers across RPC. Thrown errors lose their class (and so their
 * code) on the way back, so expected failures travel as values and become `AppError`s again on
 * the caller's side with `unwrap`.
 */
export type RpcResult<T> = { ok: true; value: T } | RpcFailure;
export type RpcFailure = { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

/** A successful answer. */
export const success = <T>(value: T): RpcResult<T> => ({ ok: true, value });

/** An expected failure, as a value. */
export function failure(code: ErrorCode, message: string, details?: Record<string, unknown>): RpcFailure {
  return details ? { ok: false, code, message, details } : { ok: false, code, message };
}

/** The value of a successful answer, or the failure rethrown as the `AppError` it stands for. */
export function unwrap<T>(result: RpcResult<T>): T {
  if (result.ok) return result.value;
  const code: ErrorCode = isErrorCode(result.code) ? result.code : "internal";
  throw new AppError(code, result.message, result.details ? { details: result.details } : {});
}
