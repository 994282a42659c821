import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { AppError, forbidden, unauthorized } from "../errors.ts";
import { log } from "../log.ts";
import { mayManageServerOf } from "../permissions.ts";
import { sha256Hex } from "../sha256.ts";
import type { UserContext } from "../user-context.ts";
import { guardedFetch } from "./guarded-fetch.ts";
import { type OAuthRecord, StoredOAuthProvider } from "./oauth-provider.ts";
import { findSignInState, saveOAuth, saveSignInState, takeSignInState } from "./oauth-store.ts";
import { openJson, sealJson } from "./secrets.ts";
import type { ServerRecord } from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { upstreamError } from "./upstream-error.ts";
import { checkOutboundUrl } from "./url-guard.ts";

/** How long a sign-in link works. */
const SIGN_IN_TTL_SECONDS = 600;

/** Where the provider sends the boss back: `/api/mcp/oauth/callback` on the origin they called. */
export function callbackUrl(requestUrl: string): string {
  return new URL("/api/mcp/oauth/callback", requestUrl).href;
}

export function oauthBinding(server: Pick<ServerRecord, "tenantId" | "id">): string {
  return `${server.tenantId}/${server.id}/oauth`;
}

/** The server's stored OAuth record (or `sealed`, a state of it read later), opened; empty when it has none. */
export async function loadOAuth(
  service: FederationService,
  server: ServerRecord,
  sealed = server.oauthSealed,
): Promise<OAuthRecord | undefined> {
  if (!sealed) return undefined;
  return (await openJson({
    secret: service.secretsKey,
    older: service.olderSecretsKeys,
    sealed,
    binding: oauthBinding(server),
  })) as OAuthRecord;
}

/**
 * Seals and stores what the provider now knows, and whether a person must sign in again. With
 * `expected` (the sealed state the provider was loaded from), only if nobody stored another since.
 * Returns the sealed state stored, or nothing when another request's was kept.
 */
export async function storeOAuth(
  service: FederationService,
  server: ServerRecord,
  provider: StoredOAuthProvider,
  expected?: string | null,
): Promise<string | undefined> {
  const sealed = await sealJson({ secret: service.secretsKey, value: provider.record, binding: oauthBinding(server) });
  const stored = await saveOAuth({
    db: service.db,
    tenantId: server.tenantId,
    id: server.id,
    sealed,
    needsSignIn: provider.authorizationUrl !== undefined || !provider.record.tokens,
    ...(expected === undefined ? {} : { expected }),
  });
  return stored ? sealed : undefined;
}

/** `fetch` for the SDK's OAuth requests: discovery documents name URLs too, so every one is checked. */
export function oauthFetch(service: FederationService) {
  return (url: string | URL, init?: RequestInit) =>
    guardedFetch(url, init ?? {}, { ...service.limits, allowLocal: service.allowLocalUrls });
}

/**
 * A sign-in's state: the workshop's id, then 256 random bits. The callback arrives before anyone
 * is authenticated, so the workshop the state names says where to look for it; the random part,
 * stored only as a hash, is what proves it.
 */
function newState(tenantId: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const random = btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
  return `${tenantId}.${random}`;
}

/** The workshop a sign-in's state names, or `null` for a state Weft cannot have made. */
export function workshopOfState(state: string): string | null {
  const dot = state.lastIndexOf(".");
  return dot > 0 ? state.slice(0, dot) : null;
}

/**
 * Starts the MCP authorization flow for a server (protected-resource and authorization-server
 * discovery, dynamic client registration, PKCE) and returns the URL to send the boss to. The
 * state that comes back on the callback is stored only as a hash, for ten minutes, for one use.
 */
export async function startSignIn(service: FederationService, server: ServerRecord, redirectUrl: string): Promise<string> {
  checkOutboundUrl(server.url, { allowLocal: service.allowLocalUrls });
  const previous = await loadOAuth(service, server).catch(() => undefined);
  const record: OAuthRecord = { redirectUrl };
  // A client registered for the same callback can be used again; tokens never carry over.
  if (previous?.redirectUrl === redirectUrl && previous.clientInformation) record.clientInformation = previous.clientInformation;
  const state = newState(server.tenantId);
  const provider = new StoredOAuthProvider(record, state);
  try {
    await auth(provider, { serverUrl: server.url, fetchFn: oauthFetch(service) });
  } catch (error) {
    throw asSignInFailure(error, server);
  }
  const authorizationUrl = provider.authorizationUrl;
  if (!authorizationUrl) throw upstreamError(`${server.name} did not ask for a sign-in.`, { retryable: false });
  // The boss's browser opens this link: only a web page, never `javascript:` or another scheme.
  const local = service.allowLocalUrls && ["localhost", "127.0.0.1"].includes(authorizationUrl.hostname);
  if (authorizationUrl.protocol !== "https:" && !(local && authorizationUrl.protocol === "http:")) {
    throw upstreamError(`${server.name}'s authorization server gave a sign-in link that is not https.`, { retryable: false });
  }
  await storeOAuth(service, server, provider);
  await saveSignInState({
    db: service.db,
    tenantId: server.tenantId,
    id: server.id,
    stateHash: await sha256Hex(state),
    ttlSeconds: SIGN_IN_TTL_SECONDS,
  });
  return authorizationUrl.href;
}

/**
 * Finishes a sign-in from the provider's callback: the code is exchanged for tokens, which are
 * sealed and stored. The state is checked first: unknown, used or expired is 404 whoever asks (it
 * is a random secret, so saying it does not exist tells nothing, where "sign in first" would
 * promise a link that cannot work). Then only `user`, signed in to Weft as someone who may manage
 * the server, may finish it, or a link a boss sent to another person would store that person's
 * account in the boss's server (login CSRF); refused (401 with nobody signed in, 403 otherwise),
 * the state stays, so the right person can still finish.
 */
export async function finishSignIn(
  service: FederationService,
  { state, code, user }: { state: string; code: string; user: UserContext | null },
): Promise<ServerRecord> {
  const stateHash = await sha256Hex(state);
  const pending = await findSignInState({ ...service, stateHash });
  if (!user) throw unauthorized("Sign in to Weft as a boss of this server's workshop, then open the sign-in link again.");
  if (!mayManageServerOf(user, pending.tenantId)) {
    log("warn", "mcp_oauth_callback_refused", { server_id: pending.id, tenant_id: pending.tenantId, user_id: user.userId });
    throw forbidden("Only a boss of the workshop this server belongs to can finish its sign-in. Sign in to Weft as one.");
  }
  const server = await takeSignInState({ db: service.db, stateHash, tenantId: pending.tenantId, id: pending.id });
  const record = await loadOAuth(service, server);
  if (!record) throw new AppError("not_found", "This sign-in link is unknown, used or expired. Start the sign-in again.");
  const provider = new StoredOAuthProvider(record);
  try {
    await auth(provider, { serverUrl: server.url, authorizationCode: code, fetchFn: oauthFetch(service) });
  } catch (error) {
    throw asSignInFailure(error, server);
  }
  await storeOAuth(service, server, provider);
  return server;
}

/**
 * Revokes a server's tokens at its authorization server (RFC 7009) when it advertises a revocation
 * endpoint. Best effort: a server being deleted is deleted even if revocation fails.
 */
export async function revokeTokens(service: FederationService, server: ServerRecord): Promise<void> {
  try {
    const record = await loadOAuth(service, server);
    const metadata = record?.discoveryState?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined;
    const endpoint = metadata?.revocation_endpoint;
    const clientId = record?.clientInformation?.client_id;
    if (!record?.tokens || !endpoint || !clientId) return;
    const fetchFn = oauthFetch(service);
    for (const [token, hint] of [
      [record.tokens.refresh_token, "refresh_token"],
      [record.tokens.access_token, "access_token"],
    ] as const) {
      if (!token) continue;
      const body = new URLSearchParams({ token, token_type_hint: hint, client_id: clientId });
      const res = await fetchFn(endpoint, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      await res.body?.cancel();
    }
  } catch (error) {
    log("warn", "mcp_oauth_revoke_failed", { server_id: server.id, tenant_id: server.tenantId, error });
  }
}

/**
 * Revokes the tokens of every server of a workshop that signed in through OAuth, side by side,
 * best effort like `revokeTokens`. `servers` are read before the workshop's rows are deleted (the
 * tokens go with them) and revoked after, so a deletion that fails revokes nothing.
 */
export async function revokeAllTokens(service: FederationService, servers: ServerRecord[]): Promise<void> {
  await Promise.all(servers.filter((server) => server.oauthSealed).map((server) => revokeTokens(service, server)));
}

function asSignInFailure(error: unknown, server: ServerRecord): AppError {
  if (error instanceof AppError) return error;
  const reason = error instanceof Error ? error.message.slice(0, 300) : "unknown failure";
  return upstreamError(`Signing in to ${server.name} failed: ${reason}`, { retryable: false, cause: error });
}
