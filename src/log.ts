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
export function log(level: "info" | "warn" | "error", event: string, fields: Fields = {}): void {
  const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...redact(fields) });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
