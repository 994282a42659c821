export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
let threshold: LogLevel = "info";

/** Sets the least level that is printed (`LOG_LEVEL`, read once per isolate with the configuration). */
export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

const SECRET_KEYS = /authorization|api[_-]?key|token|secret|password|cookie/i;

type Fields = Record<string, unknown>;

/** Copies log fields, replacing any value whose name suggests a credential, at any depth. */
export function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEYS.test(key)) out[key] = "[redacted]";
    else if (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Error)) {
      out[key] = redact(value as Fields);
    } else if (value instanceof Error) out[key] = { name: value.name, message: value.message, stack: value.stack };
    else out[key] = value;
  }
  return out;
}

/**
 * One JSON line per event, the shape Workers Logs indexes. Callers pass fields, never
 * pre-formatted strings, so redaction can see every name.
 */
export function log(level: LogLevel, event: string, fields: Fields = {}): void {
  if (RANK[level] < RANK[threshold]) return;
  const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...redact(fields) });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
