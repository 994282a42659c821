import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import type { Config } from "../config.ts";
import { type ErrorBody, type ErrorCode, forbidden, statusOf } from "../errors.ts";

function matchesPattern(origin: string, allowed: readonly string[]): boolean {
  for (const pattern of allowed) {
    if (pattern === origin) return true;
    if (pattern.endsWith(":*")) {
      const base = pattern.slice(0, -2);
      const port = origin.startsWith(`${base}:`) ? origin.slice(base.length + 1) : "";
      if (/^\d{1,5}$/.test(port)) return true;
    }
  }
  return false;
}

/**
 * Whether a browser `Origin` may call: the server's own origin, or one of `allowed`, where a
 * pattern may end in `:*` for any port (`http://localhost:*`). Compared as exact strings, never
 * as prefixes, so `http://localhost.evil.example` matches nothing. The web face's check: its
 * cookie is bound to the real host, so an origin a rebinding attacker names carries none.
 */
export function originAllowed(origin: string, requestUrl: string, allowed: readonly string[]): boolean {
  return origin === new URL(requestUrl).origin || matchesPattern(origin, allowed);
}

/**
 * The hostname a `Host` header (or an origin's authority) names, lower-cased, without its port;
 * IPv6 literals keep their brackets (`[::1]`). `null` for anything that is not a plain authority.
 */
export function hostnameOf(authority: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(authority.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

/** Whether `host` (a `Host` header) names one of the deployment's hosts, on any port. */
export function hostAllowed(host: string | undefined, allowedHosts: readonly string[]): boolean {
  const hostname = host === undefined ? null : hostnameOf(host);
  return hostname !== null && allowedHosts.includes(hostname);
}

/**
 * Whether a browser `Origin` may call `/mcp`: listed in `ALLOWED_ORIGINS`, or a page of the
 * deployment itself (an http(s) origin whose host is in `ALLOWED_HOSTS`). Never compared with the
 * request's own `Host`, which is what a DNS-rebinding attacker controls.
 */
export function originListed(origin: string, allowedHosts: readonly string[], allowedOrigins: readonly string[]): boolean {
  if (matchesPattern(origin, allowedOrigins)) return true;
  const scheme = /^https?:\/\//.exec(origin)?.[0];
  return scheme !== undefined && hostAllowed(origin.slice(scheme.length), allowedHosts);
}

/**
 * Refuses (403) a request whose `Host` is not one of the deployment's (`ALLOWED_HOSTS`), then one
 * whose `Origin` is present and not listed: the defence against DNS rebinding that the MCP spec
 * asks of servers. Requests without `Origin` (agents, curl) pass the second check.
 *
 * @example mcpRoutes.use(checkHostAndOrigin())
 */
export function checkHostAndOrigin() {
  return createMiddleware<AppEnv>(async function checkHostAndOriginMiddleware(c, next) {
    const { allowedHosts, allowedOrigins } = c.var.config;
    // The URL's host is the Host header on the network; a request made in-process may carry only the URL.
    const host = c.req.header("Host") ?? new URL(c.req.url).host;
    if (!hostAllowed(host, allowedHosts)) {
      throw forbidden(
        allowedHosts.length === 0
          ? "This deployment serves no host yet: set ALLOWED_HOSTS to the host names it is reached by."
          : `Requests for host '${host.slice(0, 100)}' are not served here. Set ALLOWED_HOSTS to allow it.`,
      );
    }
    const origin = c.req.header("Origin");
    if (origin !== undefined && !originListed(origin, allowedHosts, allowedOrigins)) {
      throw forbidden(`Requests from origin '${origin.slice(0, 100)}' are not allowed. Set ALLOWED_ORIGINS to allow it.`);
    }
    await next();
  });
}

/**
 * Refuses (403) a POST whose `Origin` is present and not allowed (`originAllowed`): the routes that
 * sign someone in or up before any cookie exists, where a form posted from another site could sign
 * the victim into the attacker's account. Requests without `Origin` (scripts, curl) pass.
 *
 * @example authRoutes.use(refuseForeignOrigin("Sign-in"))
 */
export function refuseForeignOrigin(what: string) {
  return createMiddleware<AppEnv>(async function refuseForeignOriginMiddleware(c, next) {
    const origin = c.req.header("Origin");
    if (c.req.method === "POST" && origin !== undefined && !originAllowed(origin, c.req.url, c.var.config.allowedOrigins)) {
      throw forbidden(`${what} from origin '${origin.slice(0, 100)}' is not allowed.`);
    }
    await next();
  });
}

// The OAuth endpoints a browser-based public client calls across origins (the provider answers
// them with CORS, as RFC 8414, 7591 and OAuth 2.1 expect), and `/mcp`, which checks Origin itself.
const CROSS_ORIGIN_PATHS = /^\/(\.well-known\/|oauth\/token$|oauth\/register$|mcp(\/|$))/;

function refusal(code: ErrorCode, message: string): Response {
  const body: ErrorBody = { error: { code, message } };
  return Response.json(body, { status: statusOf(code) });
}

/**
 * The Worker's first check, before any route, the OAuth provider included: a `Host` that is not
 * a host name at all (`localhost :8787`) is 400, one that is not the deployment's
 * (`ALLOWED_HOSTS`) 403 (DNS rebinding), and a browser's `Origin` that is neither this origin nor
 * an allowed one 403, except on the paths that serve other origins by design (OAuth discovery,
 * registration and token, and `/mcp`, whose own check is stricter). `null` lets the request on.
 *
 * @example const refused = refuseAtTheDoor(request, config); if (refused) return refused;
 */
export function refuseAtTheDoor(request: Request, config: Config): Response | null {
  const header = request.headers.get("Host");
  if (header !== null && hostnameOf(header) === null) {
    return refusal("bad_request", `'${header.slice(0, 100)}' is not a host name: send a Host header such as 'localhost:8787'.`);
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return refusal("bad_request", "The request's address is not a valid URL: check the Host header.");
  }
  const { allowedHosts, allowedOrigins } = config;
  const host = header ?? url.host;
  if (!hostAllowed(host, allowedHosts)) {
    return refusal(
      "forbidden",
      allowedHosts.length === 0
        ? "This deployment serves no host yet: set ALLOWED_HOSTS to the host names it is reached by."
        : `Requests for host '${host.slice(0, 100)}' are not served here. Set ALLOWED_HOSTS to allow it.`,
    );
  }
  const origin = request.headers.get("Origin");
  const foreign =
    origin !== null &&
    !CROSS_ORIGIN_PATHS.test(url.pathname) &&
    !originAllowed(origin, url.href, allowedOrigins) &&
    !originListed(origin, allowedHosts, allowedOrigins);
  if (foreign) {
    return refusal(
      "forbidden",
      `Requests from origin '${origin.slice(0, 100)}' are not allowed. Set ALLOWED_ORIGINS to allow it.`,
    );
  }
  return null;
}
