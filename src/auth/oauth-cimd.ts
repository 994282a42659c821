import { z } from "zod";
import { AppError } from "../errors.ts";
import { DEFAULT_LIMITS, type FetchLimits, guardedFetch } from "../federation/guarded-fetch.ts";
import { GRANT_TTL_SECONDS } from "./oauth-server.ts";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25): a
 * client whose `client_id` is an https URL publishes its name and redirect URIs there. Weft reads
 * the document itself, through federation's guarded fetch (https only, no private or local
 * address in any spelling, redirects re-checked, 5 KiB, 5 s), rather than letting the library
 * fetch it with the Worker's plain `fetch`, and stores the result as the client's record.
 */
const LIMITS: FetchLimits = {
  ...DEFAULT_LIMITS,
  allowLocal: false,
  connectTimeoutMs: 3_000,
  totalTimeoutMs: 5_000,
  maxBytes: 5 * 1024,
};

// KV keys are at most 512 bytes, and `client:` comes first.
const MAX_CLIENT_ID_LENGTH = 400;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a `client_id` names a metadata document: an https URL with a path, as the draft requires. */
export function isMetadataDocumentId(clientId: string): boolean {
  if (!clientId.startsWith("https://")) return false;
  try {
    return new URL(clientId).pathname !== "/";
  } catch {
    return false;
  }
}

function redirectUriAllowed(raw: string): boolean {
  try {
    const url = new URL(raw);
    if (url.hash || url.username || url.password) return false;
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

const DocumentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(200),
  redirect_uris: z.array(z.string().max(2048)).min(1).max(20),
  client_uri: z.string().max(2048).optional(),
  logo_uri: z.string().max(2048).optional(),
  // Weft has no keys to check a client's signature with: a metadata document client is public.
  token_endpoint_auth_method: z.literal("none").optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
});

function refuse(reason: string): AppError {
  return new AppError("bad_request", `This app could not be verified: ${reason}`);
}

/**
 * Reads, checks and stores the metadata document a `client_id` URL names, so the authorization
 * and token endpoints know the client. Stored for as long as a grant made now can be refreshed;
 * each authorization reads it again. Throws `bad_request` or the guard's `unsafe_url` /
 * `upstream_failed`, each with a message fit for the authorize page.
 */
export async function loadMetadataDocument({ kv, clientId }: { kv: KVNamespace; clientId: string }): Promise<void> {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) throw refuse(`its client_id is longer than ${MAX_CLIENT_ID_LENGTH} characters.`);
  const url = new URL(clientId);
  if (url.hash || url.username || url.password || url.pathname.split("/").some((s) => s === "." || s === "..")) {
    throw refuse("its client_id is not a plain https URL.");
  }
  const response = await guardedFetch(clientId, { headers: { Accept: "application/json" } }, LIMITS);
  if (!response.ok) {
    await response.body?.cancel();
    throw refuse(`its metadata document answered HTTP ${response.status}.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse("its metadata document is not JSON.");
  }
  const parsed = DocumentSchema.safeParse(body);
  if (!parsed.success) throw refuse("its metadata document lacks a client_name or redirect_uris, or asks for client secrets.");
  const document = parsed.data;
  if (document.client_id !== clientId) throw refuse("its metadata document names another client_id.");
  if (!document.redirect_uris.some(redirectUriAllowed)) throw refuse("none of its redirect URIs is https or a loopback address.");
  const unsupported = (document.grant_types ?? []).filter((g) => g !== "authorization_code" && g !== "refresh_token");
  if (unsupported.length) throw refuse(`it asks for grant types Weft does not offer (${unsupported.join(", ").slice(0, 100)}).`);
  // The shape of a client record in OAUTH_KV (the library's documented storage schema).
  const record = {
    clientId,
    clientName: document.client_name,
    redirectUris: document.redirect_uris.filter(redirectUriAllowed),
    clientUri: document.client_uri,
    logoUri: document.logo_uri,
    grantTypes: ["authorization_code", "refresh_token"],
    responseTypes: ["code"],
    registrationDate: Math.floor(Date.now() / 1000),
    tokenEndpointAuthMethod: "none",
    authMethodExplicit: true,
  };
  await kv.put(`client:${clientId}`, JSON.stringify(record), { expirationTtl: GRANT_TTL_SECONDS + 24 * 60 * 60 });
}
