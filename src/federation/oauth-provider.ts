import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import pkg from "../../package.json" with { type: "json" };

/** What Weft keeps about one server's OAuth sign-in, sealed like header secrets. */
export interface OAuthRecord {
  redirectUrl: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token expires (ms since the epoch), from `expires_in` when the tokens came; absent when unknown. */
  expiresAt?: number;
  codeVerifier?: string;
  discoveryState?: Record<string, unknown>;
}

type DiscoveryState = NonNullable<Awaited<ReturnType<NonNullable<OAuthClientProvider["discoveryState"]>>>>;

/**
 * The MCP SDK's `OAuthClientProvider` over one stored record: the SDK drives discovery, dynamic
 * client registration, PKCE, the code exchange and refreshes; this object only remembers (the
 * caller seals and stores the record). A need for a person to sign in sets `authorizationUrl`
 * (Weft never redirects by itself: it hands the URL to the boss).
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  readonly record: OAuthRecord;
  private readonly newState: string;

  constructor(record: OAuthRecord, state = "") {
    this.record = record;
    this.newState = state;
  }

  get redirectUrl(): string {
    return this.record.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Weft",
      software_id: "weft",
      software_version: pkg.version,
      redirect_uris: [this.record.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    return this.newState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.record.clientInformation;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.record.clientInformation = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.record.tokens = tokens;
    if (tokens.expires_in === undefined) delete this.record.expiresAt;
    else this.record.expiresAt = Date.now() + tokens.expires_in * 1000;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.record.codeVerifier = verifier;
  }

  codeVerifier(): string {
    if (!this.record.codeVerifier) throw new Error("no sign-in is in progress for this server");
    return this.record.codeVerifier;
  }

  saveDiscoveryState(state: DiscoveryState): void {
    this.record.discoveryState = state as unknown as Record<string, unknown>;
  }

  discoveryState(): DiscoveryState | undefined {
    return this.record.discoveryState as unknown as DiscoveryState | undefined;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "client") delete this.record.clientInformation;
    if (scope === "all" || scope === "tokens") {
      delete this.record.tokens;
      delete this.record.expiresAt;
    }
    if (scope === "all" || scope === "verifier") delete this.record.codeVerifier;
    if (scope === "all" || scope === "discovery") delete this.record.discoveryState;
  }
}
