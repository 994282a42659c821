import { AppError } from "../errors.ts";
import { blockedIpv4, blockedIpv6, parseIpv4, parseIpv6 } from "./ip-ranges.ts";

const MAX_URL_LENGTH = 2048;

// Names that resolve on the caller's own machine or network, never on the public internet.
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan"];

/** What may reach past the usual rules: `MCP_ALLOW_LOCAL_URLS` lets a self-hoster use their own machine. */
export interface UrlPolicy {
  allowLocal: boolean;
}

function refuse(url: string, reason: string): AppError {
  return new AppError("unsafe_url", `Refused URL ${url.slice(0, 200)}: ${reason}.`);
}

function isLocalException(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "127.0.0.1";
}

/**
 * Checks a URL Weft is about to call on a workshop's behalf (server-side request forgery rules):
 * `https` only, no credentials, no private, loopback, link-local, CGNAT or metadata address in any
 * spelling (the URL parser turns `2130706433`, `0x7f.1` and `0177.0.0.1` into `127.0.0.1`, and
 * IPv6 into one form), no local-only names. With `allowLocal`, `http(s)://localhost` and
 * `127.0.0.1` pass, and nothing else changes. Throws `unsafe_url`.
 *
 * @example checkOutboundUrl("https://mcp.example.com/mcp", { allowLocal: false }) // URL
 */
export function checkOutboundUrl(raw: string, policy: UrlPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw refuse(raw, `longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(raw, "not an absolute URL");
  }
  if (url.username || url.password) throw refuse(raw, "credentials in a URL are not allowed; send them as headers");
  const local = policy.allowLocal && isLocalException(url);
  if (url.protocol !== "https:" && !(local && url.protocol === "http:")) throw refuse(raw, "only https URLs are allowed");
  if (local) return url;
  const reason = hostProblem(url.hostname);
  if (reason) throw refuse(raw, reason);
  return url;
}

/** Why a host (as the URL parser normalised it) is refused, or null. */
function hostProblem(hostname: string): string | null {
  if (hostname.startsWith("[")) {
    const groups = parseIpv6(hostname.slice(1, -1));
    if (!groups) return "an IPv6 address that cannot be read";
    const blocked = blockedIpv6(groups);
    return blocked ? `the address is ${blocked}` : null;
  }
  const host = hostname.replace(/\.+$/, "");
  const v4 = parseIpv4(host);
  if (v4) {
    const blocked = blockedIpv4(v4);
    return blocked ? `the address is ${blocked}` : null;
  }
  if (!host) return "no host";
  if (host === "localhost" || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "a local-only name";
  // A single label (`metadata`, `intranet`) is looked up on the local network's search domains.
  if (!host.includes(".")) return "a name without a domain";
  return null;
}
