const MAX_NAME = 64;

/** Every external tool's name starts so, and no tool of Weft's own does (the registry test holds it). */
export const EXTERNAL_TOOL_PREFIX = "mcp_";

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable, synchronous tag for a suffix. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** Lowercase ASCII `[a-z0-9_]`: anything else becomes `_`, runs of `_` collapse. */
function sanitize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .replace(/_+/g, "_");
}

/**
 * The name an external tool is served under: `mcp_{server}_{tool}`, ASCII `[a-z0-9_]`, at most 64
 * characters. When that name was cut short or is already `taken`, the end is replaced with a hash
 * of the server and tool names, so two different tools never share a name and the same tool keeps
 * its name between requests.
 *
 * @example externalToolName("github", "create-issue", new Set()) // "mcp_github_create_issue"
 */
export function externalToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const plain = `${EXTERNAL_TOOL_PREFIX}${sanitize(server)}_${sanitize(tool)}`;
  if (plain.length <= MAX_NAME && !taken.has(plain)) return plain;
  const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
  let name = `${plain.slice(0, MAX_NAME - suffix.length)}${suffix}`;
  // Two tools whose names and hashes both collide: extremely unlikely, but never serve a duplicate.
  for (let n = 2; taken.has(name); n++) name = `${plain.slice(0, MAX_NAME - suffix.length - 3)}${suffix}_${n}`.slice(0, MAX_NAME);
  return name;
}
