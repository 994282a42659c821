import {
  getOAuthApi,
  type OAuthHelpers,
  OAuthProvider,
  type OAuthProviderOptions,
  type OAuthResourceAuth,
} from "@cloudflare/workers-oauth-provider";
import { type Config, publicOrigin } from "../config.ts";
import { log } from "../log.ts";
import { clientAddress } from "./client-address.ts";
import type { Directory } from "./directory.ts";
import { checkRegistration } from "./registration-check.ts";
import { limitRegistration } from "./registration-limit.ts";

/** Where Weft serves the OAuth endpoints it owns; the token and registration ones are the library's. */
export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  signIn: "/oauth/sign-in",
  token: "/oauth/token",
  register: "/oauth/register",
} as const;

/** Read-only tools, or also the tools that prepare writes (each still waits for the person's yes). */
export const SCOPES = { read: "weft:read", write: "weft:write" } as const;
export type Access = keyof typeof SCOPES;

/** What a grant stores, encrypted, and every token of it hands back to `/mcp`. */
export interface OAuthProps {
  connectionId: string;
  userId: string;
  tenantId: string;
}

/** A token the provider verified for this very request: its grant's props and its scopes. */
export interface VerifiedGrant {
  props: OAuthProps;
  scope: string[];
}

const MCP_PATH = "/mcp";
const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** A grant lasts this long from consent however often it is refreshed; then the person consents again. */
export const GRANT_TTL_SECONDS = 30 * 24 * 60 * 60;

// The execution contexts the provider handed to `/mcp` after verifying a token, with what it found.
// A context is made by the runtime per request, so no other request can be mistaken for one of these.
const verified = new WeakMap<object, VerifiedGrant>();

/** The grant the provider verified for this request, if it came through with an OAuth token. */
export function verifiedGrantOf(ctx: object): VerifiedGrant | undefined {
  return verified.get(ctx);
}

/**
 * Whether a bearer token has the shape of one this server issues (`user:grant:secret`). API keys
 * never contain a colon, so the two kinds never meet the wrong checker.
 */
export function isIssuedTokenShape(token: string): boolean {
  return /^[^:\s]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/.test(token);
}

/** The origin Weft is an authorization server at for this request, or null where OAuth is off. */
export function oauthOrigin(request: Request | URL, config: Config): string | null {
  return config.publicUrl ?? publicOrigin(request instanceof URL ? request : new URL(request.url));
}

/** The URL of `/mcp`'s protected resource metadata (RFC 9728) at an origin. */
export function resourceMetadataUrl(origin: string): string {
  return `${origin}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

type Handler = { fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> };

function optionsFor(origin: string, app: Handler): OAuthProviderOptions<Env> {
  return {
    apiRoute: MCP_PATH,
    apiHandler: {
      fetch(request, env, ctx) {
        const { props, auth } = ctx as ExecutionContext & { props: OAuthProps; auth: OAuthResourceAuth };
        verified.set(ctx, { props, scope: auth.scope });
        return app.fetch(request, env, ctx);
      },
    },
    defaultHandler: app,
    authorizeEndpoint: OAUTH_PATHS.authorize,
    tokenEndpoint: OAUTH_PATHS.token,
    clientRegistrationEndpoint: OAUTH_PATHS.register,
    scopesSupported: [SCOPES.read, SCOPES.write],
    // Published as the protected resource's `scopes_supported` (the library's name for it): both,
    // so a client that follows the spec asks for write access too. The person still chooses on the
    // consent page, and every write still waits for a yes (`confirm_by`). Advertised, not enforced.
    requiredScopes: [SCOPES.read, SCOPES.write],
    resourceMetadata: {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [origin],
      bearer_methods_supported: ["header"],
      resource_name: "Weft",
    },
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTTL: GRANT_TTL_SECONDS,
    // The library's default logs the whole error object; Weft logs the stable reason only.
    onError({ code, status, internal }) {
      log(status >= 500 ? "error" : "info", "oauth_error", {
        code,
        status,
        category: internal.category,
        reason: internal.reason,
      });
    },
  };
}

// The provider is built once per origin (one, when PUBLIC_URL is set) and isolate.
const providers = new Map<string, OAuthProvider<Env>>();
const MAX_ORIGINS = 16;

function providerFor(origin: string, app: Handler): OAuthProvider<Env> {
  let provider = providers.get(origin);
  if (!provider) {
    if (providers.size >= MAX_ORIGINS) providers.clear();
    provider = new OAuthProvider(optionsFor(origin, app));
    providers.set(origin, provider);
  }
  return provider;
}

// The helpers parse, complete and list; they never route, so they need no handler of their own.
const NOT_ROUTED: Handler = { fetch: () => new Response(null, { status: 404 }) };

/** The OAuth helpers (authorize, consent, grants) of the authorization server at `origin`. */
export function oauthHelpers(origin: string, env: Env): OAuthHelpers {
  return getOAuthApi(optionsFor(origin, NOT_ROUTED), env);
}

/**
 * Serves a request with Weft as the OAuth 2.1 authorization server of `/mcp` in front of `app`:
 * discovery metadata, registration (counted against `REGISTRATION_LIMITS` first), token and
 * revocation are the library's; `/oauth/authorize`
 * and everything else is `app`'s. At `/mcp` a token of this server's shape is verified by the
 * provider and reaches `app` with its grant (see `verifiedGrantOf`); any other request (an API key,
 * no credentials) goes to `app` as before, and a 401 from it names the resource metadata, so a
 * client that knows only the URL can start signing in.
 */
export async function serveWithOAuth(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  app: Handler,
  config: Config,
  directory: Directory,
): Promise<Response> {
  // One parse of the URL a request: this runs in front of every request Weft serves.
  const url = new URL(request.url);
  const origin = oauthOrigin(url, config);
  if (!origin) return app.fetch(request, env, ctx);
  const { pathname } = url;
  const atMcp = pathname === MCP_PATH || pathname.startsWith(`${MCP_PATH}/`);
  const bearer = request.headers.get("Authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (atMcp && !(bearer && isIssuedTokenShape(bearer))) {
    const response = await app.fetch(request, env, ctx);
    return response.status === 401 ? withResourceMetadata(response, origin) : response;
  }
  if (!atMcp && !providerOwns(pathname)) return app.fetch(request, env, ctx);
  let forProvider = request;
  if (pathname === OAUTH_PATHS.register && request.method === "POST") {
    const checked = await checkRegistration(request);
    if ("refused" in checked) return checked.refused;
    forProvider = checked.request;
    const address = clientAddress({
      header: request.headers.get("CF-Connecting-IP") ?? undefined,
      trusted: config.trustClientIpHeader,
    });
    const refused = await limitRegistration({ limiters: directory.limiters, address, origin: request.headers.get("Origin") });
    if (refused) return refused;
  }
  const response = await providerFor(origin, app).fetch(forProvider, env, ctx);
  return pathname === AUTHORIZATION_SERVER_METADATA && response.ok ? withMetadataDocuments(response) : response;
}

const AUTHORIZATION_SERVER_METADATA = "/.well-known/oauth-authorization-server";

/**
 * Whether the provider answers a path itself: discovery metadata, token, registration (and `/mcp`
 * with one of its tokens). It hands every other request to `app` unchanged, after parsing the URL
 * against each endpoint it knows (0.26 ms of a 13.8 ms authenticated read under wrangler dev), so
 * those go to `app` directly.
 */
function providerOwns(pathname: string): boolean {
  return pathname.startsWith("/.well-known/") || pathname === OAUTH_PATHS.token || pathname === OAUTH_PATHS.register;
}

// Weft reads client metadata documents itself (oauth-cimd.ts), so the library, which does not,
// leaves the flag false: the metadata says what the server as a whole supports.
async function withMetadataDocuments(response: Response): Promise<Response> {
  const metadata = await response.json<Record<string, unknown>>();
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return Response.json({ ...metadata, client_id_metadata_document_supported: true }, { status: response.status, headers });
}

function withResourceMetadata(response: Response, origin: string): Response {
  const headers = new Headers(response.headers);
  headers.set(
    "WWW-Authenticate",
    `Bearer realm="weft", resource_metadata="${resourceMetadataUrl(origin)}", scope="${SCOPES.read} ${SCOPES.write}"`,
  );
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
