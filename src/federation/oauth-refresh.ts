import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { loadOAuth, oauthFetch, storeOAuth } from "./oauth.ts";
import { type OAuthRecord, StoredOAuthProvider } from "./oauth-provider.ts";
import { claimRefresh, currentOAuth, releaseRefresh, saveOAuth } from "./oauth-store.ts";
import type { ServerRecord } from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { upstreamError } from "./upstream-error.ts";

/** Tokens this close to their expiry are refreshed before use, so a call never starts with one about to lapse. */
export const REFRESH_MARGIN_MS = 60_000;
/** How long a refresh claim holds: longer than a refresh can take under the call limits. */
const LEASE_SECONDS = 30;
/** How long a request waits for another request's refresh before it gives up (retryable). */
const MAX_WAIT_MS = 10_000;
const WAIT_STEP_MS = 200;

/** The error for a server whose tokens are gone or refused: a person must sign in again. */
export function signInNeeded(server: ServerRecord): AppError {
  return upstreamError(`${server.name} needs signing in (POST /api/mcp/servers/${server.id}/sign-in).`, {
    statusCode: 401,
    retryable: false,
  });
}

/** Whether the access token is known to expire within the margin (unknown expiry: no). */
export function expiresSoon(record: OAuthRecord, now = Date.now()): boolean {
  return record.expiresAt !== undefined && record.expiresAt - now < REFRESH_MARGIN_MS;
}

/**
 * The server's OAuth record with an access token usable now, and the sealed state it came from.
 * Tokens known to expire within `REFRESH_MARGIN_MS` are refreshed first, through the SDK's
 * `auth()`. One request at a time refreshes a server: it claims the row (`claimRefresh`, only
 * while the stored state is the one it read), and stores the new tokens only over that same state;
 * a request that finds the claim taken waits for the stored state to change and uses what the
 * winner stored. So a refresh token is spent once, and no request stores tokens that were already
 * rotated away.
 */
export async function freshOAuth(
  service: FederationService,
  server: ServerRecord,
): Promise<{ record: OAuthRecord; sealed: string | null }> {
  const where = { db: service.db, tenantId: server.tenantId, id: server.id };
  const giveUpAt = Date.now() + MAX_WAIT_MS;
  let sealed = server.oauthSealed;
  let needsSignIn = server.needsSignIn;
  for (;;) {
    const record = await loadOAuth(service, server, sealed);
    if (!record?.tokens || (needsSignIn && sealed !== server.oauthSealed)) throw signInNeeded(server);
    if (!expiresSoon(record) || !record.tokens.refresh_token) return { record, sealed };
    if (await claimRefresh({ ...where, expected: sealed, leaseSeconds: LEASE_SECONDS })) {
      return refreshClaimed(service, server, record, sealed);
    }
    if (Date.now() > giveUpAt) {
      throw upstreamError(`${server.name}'s sign-in is being refreshed by another request; try again.`);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    ({ sealed, needsSignIn } = await currentOAuth(where));
  }
}

/**
 * A usable record after the server answered 401 to the access token of `refused` (the sealed state
 * the caller sent it from), although it looked valid: what another request stored since, when the
 * stored state changed; otherwise a refresh under the same claim as `freshOAuth`, whatever the
 * token's expiry. So two requests refused at once spend the refresh token once, and the one that
 * did not refresh uses the winner's tokens instead of marking the server as needing sign-in.
 * Without a refresh token, a person must sign in again.
 */
export async function renewRefused(
  service: FederationService,
  server: ServerRecord,
  refused: string | null,
): Promise<{ record: OAuthRecord; sealed: string | null }> {
  const where = { db: service.db, tenantId: server.tenantId, id: server.id };
  const giveUpAt = Date.now() + MAX_WAIT_MS;
  for (;;) {
    const { sealed, needsSignIn } = await currentOAuth(where);
    const record = await loadOAuth(service, server, sealed);
    if (!record?.tokens || needsSignIn) throw signInNeeded(server);
    if (sealed !== refused) return { record, sealed };
    if (!record.tokens.refresh_token) {
      // Nothing to refresh with; stored only over the state read, as any store of OAuth state.
      if (await saveOAuth({ ...where, sealed, needsSignIn: true, expected: sealed })) throw signInNeeded(server);
      continue;
    }
    if (await claimRefresh({ ...where, expected: sealed, leaseSeconds: LEASE_SECONDS })) {
      return refreshClaimed(service, server, record, sealed);
    }
    if (Date.now() > giveUpAt) {
      throw upstreamError(`${server.name}'s sign-in is being refreshed by another request; try again.`);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

/**
 * Refreshes while holding the claim. Refused (the provider no longer honours the refresh token or
 * the client): the server is marked as needing sign-in. Failed for a passing reason (network,
 * the provider's 5xx): the claim is released and nothing changes, so the next request tries again.
 */
async function refreshClaimed(
  service: FederationService,
  server: ServerRecord,
  record: OAuthRecord,
  sealed: string | null,
): Promise<{ record: OAuthRecord; sealed: string | null }> {
  const where = { db: service.db, tenantId: server.tenantId, id: server.id };
  const provider = new StoredOAuthProvider(structuredClone(record));
  let outcome: Awaited<ReturnType<typeof auth>>;
  try {
    outcome = await auth(provider, { serverUrl: server.url, fetchFn: oauthFetch(service) });
  } catch (error) {
    await releaseRefresh(where);
    throw upstreamError(`Refreshing the sign-in to ${server.name} failed; try again.`, { cause: error });
  }
  // The SDK answers REDIRECT both when the provider refused the refresh (it drops the tokens
  // first) and when the refresh could not be made at all (the tokens stay).
  if (outcome === "REDIRECT" && provider.record.tokens) {
    await releaseRefresh(where);
    throw upstreamError(`Refreshing the sign-in to ${server.name} failed; try again.`);
  }
  // The claim was taken over this state, so only a server changed meanwhile (new URL, new sign-in) refuses it.
  const stored = await storeOAuth(service, server, provider, sealed);
  if (outcome === "REDIRECT") throw signInNeeded(server);
  if (stored === undefined) throw upstreamError(`${server.name}'s sign-in changed during a refresh; try again.`);
  log("info", "mcp_oauth_refreshed", { server_id: server.id, tenant_id: server.tenantId });
  return { record: provider.record, sealed: stored };
}
