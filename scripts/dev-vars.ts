// Local secrets for `npm run dev`: .dev.vars (git-ignored) gets an MCP_SECRETS_KEY when it has none,
// so header secrets of registered MCP servers are encrypted from the first run. Existing lines are kept.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** Adds a random MCP_SECRETS_KEY to .dev.vars unless one is there; returns whether it wrote one. */
export function ensureDevSecrets(path = ".dev.vars") {
  const current = existsSync(path) ? readFileSync(path, "utf8") : "";
  if (/^MCP_SECRETS_KEY\s*=/m.test(current)) return false;
  const line = `MCP_SECRETS_KEY="${randomBytes(32).toString("base64")}"\n`;
  writeFileSync(path, `${current}${current && !current.endsWith("\n") ? "\n" : ""}${line}`, { mode: 0o600 });
  return true;
}
