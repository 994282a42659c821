import type { AppError } from "../errors.ts";
import type { BearerAuth } from "./mcp-connection.ts";
import type { OAuthRecord } from "./oauth-provider.ts";
import { renewRefused } from "./oauth-refresh.ts";
import type { ServerRecord } from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { upstreamError } from "./upstream-error.ts";

type Usable = { record: OAuthRecord; sealed: string | null };

/**
 * The OAuth access token one contact with a server sends, and what it sends once the server has
 * answered 401 to it. Weft does this itself rather than hand the SDK an auth provider: the SDK
 * refreshes on a 401 outside Weft's refresh claim, so two requests refused at once would both spend
 * a rotating refresh token. Here the renewal goes through `renewRefused`, once per contact: every
 * request of the contact refused the first token waits for that one renewal, and a renewed token
 * refused in turn (or the refused token itself brought back by the renewal) ends the contact.
 */
export class OAuthBearer implements BearerAuth {
  private readonly service: FederationService;
  private readonly server: ServerRecord;
  private current: Usable;
  private readonly first: string;
  private renewal: Promise<string> | undefined;
  private readonly seen: string[] = [];

  constructor(service: FederationService, server: ServerRecord, usable: Usable) {
    this.service = service;
    this.server = server;
    this.current = usable;
    this.first = this.token();
    this.remember(usable.record);
  }

  token(): string {
    return this.current.record.tokens?.access_token ?? "";
  }

  renew(refused: string): Promise<string> {
    if (refused !== this.first) return Promise.reject(this.refusedAgain());
    this.renewal ??= renewRefused(this.service, this.server, this.current.sealed).then((usable) => {
      this.current = usable;
      this.remember(usable.record);
      // A provider may answer a refresh with the access token it already gave: sent again, it
      // would be refused again and renewed to itself, request after request, until the deadline.
      if (this.token() === this.first) throw this.refusedAgain();
      return this.token();
    });
    return this.renewal;
  }

  /** Every token this contact held, old and new: none may appear in what the server answers. */
  secrets(): string[] {
    return [...this.seen];
  }

  private remember(record: OAuthRecord): void {
    for (const token of [record.tokens?.access_token, record.tokens?.refresh_token]) if (token) this.seen.push(token);
  }

  private refusedAgain(): AppError {
    return upstreamError(
      `${this.server.name} refused its sign-in even after it was renewed; a boss must sign in to it again (POST /api/mcp/servers/${this.server.id}/sign-in).`,
      { statusCode: 401, retryable: false },
    );
  }
}
