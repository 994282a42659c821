import { AppError } from "../errors.ts";

const MASK = "[redacted]";
/** Shorter values would match ordinary words in answers; a real credential is longer. */
const MIN_SECRET_LENGTH = 6;

/**
 * The strings that must never come back out of a server's answers or errors: its header values
 * (and the credential after a scheme such as `Bearer `) and its OAuth tokens. A server that echoes
 * a key back (in an error, or a tool that reports its request) must not show it to the caller or
 * the log.
 */
export function secretsOf(headers: Record<string, string>, tokens: (string | undefined)[] = []): string[] {
  const found = new Set<string>();
  for (const value of [...Object.values(headers), ...tokens]) {
    if (!value) continue;
    found.add(value);
    const credential = value.slice(value.indexOf(" ") + 1);
    if (credential !== value) found.add(credential);
  }
  return [...found].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every secret masked. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, MASK);
  return out;
}

/**
 * A JSON value with every secret masked in its strings (and keys); the same value when none occurs.
 * Works on the JSON text, where a secret appears JSON-escaped and can never span a quote.
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T | string {
  if (!secrets.length || value === undefined) return value;
  let json = JSON.stringify(value);
  let hit = false;
  for (const secret of secrets) {
    const encoded = JSON.stringify(secret).slice(1, -1);
    if (json.includes(encoded)) {
      json = json.replaceAll(encoded, MASK);
      hit = true;
    }
  }
  if (!hit) return value;
  try {
    return JSON.parse(json) as T;
  } catch {
    // A replacement cut an escape sequence in two: nothing of the value is safe to show.
    return MASK;
  }
}

/** An error whose message (or its cause's) held a secret, rebuilt with the secret masked. */
export function scrubError(error: unknown, secrets: readonly string[]): unknown {
  if (!secrets.length || !(error instanceof Error)) return error;
  const cause = (error as { cause?: unknown }).cause;
  const causeMessage = cause instanceof Error ? cause.message : "";
  if (!secrets.some((s) => error.message.includes(s) || causeMessage.includes(s))) return error;
  const safeCause = cause instanceof Error ? new Error(scrubText(cause.message, secrets)) : undefined;
  if (error instanceof AppError) {
    return new AppError(error.code, scrubText(error.message, secrets), {
      ...(error.details ? { details: error.details } : {}),
      cause: safeCause,
      // An upstream's refusal says for itself whether trying again may help; scrubbing keeps that.
      retryable: error.retryable,
    });
  }
  return new Error(scrubText(error.message, secrets), safeCause ? { cause: safeCause } : undefined);
}
