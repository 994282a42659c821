import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import pkg from "../../package.json" with { type: "json" };
import { AppError } from "../errors.ts";
import { FEDERATION_HEADER, type FetchLimits, guardedFetch } from "./guarded-fetch.ts";
import { upstreamError } from "./upstream-error.ts";

export type TransportKind = "streamable-http" | "sse";

/** How long ending a session may take: it is a courtesy to the server, never worth a slow answer. */
const SESSION_END_TIMEOUT_MS = 2_000;

/** Where and how to reach an external server: its URL, its (decrypted) headers, the transport that worked last. */
export interface Upstream {
  url: string;
  headers: Record<string, string>;
  transport: TransportKind | null;
  /** For servers signed in through OAuth: the access token every request carries, renewed on a 401. */
  bearer?: BearerAuth;
}

/** An access token to send as `Authorization: Bearer`, and a way to a new one when the server refuses it. */
export interface BearerAuth {
  token(): string;
  /** The token to try again with after the server answered 401 to `refused`; rejects when there is none. */
  renew(refused: string): Promise<string>;
}

/** What one contact with a server gave: the value, the transport used, and how long it took. */
export interface Contact<T> {
  value: T;
  transport: TransportKind;
  latencyMs: number;
}

/**
 * Connects to an external MCP server with the SDK's `Client` (Streamable HTTP, falling back to the
 * older HTTP+SSE transport when the server answers the POST with a 4xx), runs `use`, and closes.
 * Every request goes through `guardedFetch`; `use` gets the remaining time budget for its requests.
 * Failures come out as `upstream_failed` (502) with details, or `unsafe_url`.
 */
export async function withUpstream<T>(
  upstream: Upstream,
  limits: FetchLimits,
  use: (client: Client, options: { timeout: number }) => Promise<T>,
  { onToolsChanged }: { onToolsChanged?: () => void } = {},
): Promise<Contact<T>> {
  const started = Date.now();
  // Until the server has answered `initialize`, an answer must start within the connect timeout;
  // after that a tool may take the whole budget, since a JSON-mode server sends headers only at the end.
  let answerWithinMs = limits.connectTimeoutMs;
  const guarded = async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set(FEDERATION_HEADER, "1");
    const { bearer } = upstream;
    if (!bearer) return guardedFetch(url, { ...init, headers }, { ...limits, connectTimeoutMs: answerWithinMs });
    // Every request, the SSE stream and the session's end included, is sent again once with a renewed token.
    for (let token = bearer.token(); ; token = await bearer.renew(token)) {
      headers.set("Authorization", `Bearer ${token}`);
      const response = await guardedFetch(url, { ...init, headers }, { ...limits, connectTimeoutMs: answerWithinMs });
      if (response.status !== 401) return response;
      await response.body?.cancel();
    }
  };
  const budget = () => ({ timeout: Math.max(1, limits.totalTimeoutMs - (Date.now() - started)) });
  const attempt = async (kind: TransportKind): Promise<Contact<T>> => {
    const client = new Client(
      { name: "weft", version: pkg.version },
      { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
    );
    if (onToolsChanged) client.setNotificationHandler(ToolListChangedNotificationSchema, async () => onToolsChanged());
    const url = new URL(upstream.url);
    const requestInit = { headers: upstream.headers };
    const transport =
      kind === "streamable-http"
        ? new StreamableHTTPClientTransport(url, { fetch: guarded, requestInit, redirectPolicy: "follow" })
        : new SSEClientTransport(url, {
            fetch: guarded,
            requestInit,
            eventSourceInit: { fetch: guarded },
            redirectPolicy: "follow",
          });
    try {
      answerWithinMs = limits.connectTimeoutMs;
      await client.connect(transport, budget());
      answerWithinMs = limits.totalTimeoutMs;
      const value = await use(client, budget());
      return { value, transport: kind, latencyMs: Date.now() - started };
    } finally {
      // A stateful server keeps a session per `initialize` until told otherwise; each contact opens
      // one, so each ends its own (DELETE, bounded like any request; a server may refuse with 405).
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        answerWithinMs = Math.min(limits.connectTimeoutMs, SESSION_END_TIMEOUT_MS);
        await transport.terminateSession().catch(() => undefined);
      }
      await client.close().catch(() => undefined);
    }
  };
  try {
    if (upstream.transport === "sse") return await attempt("sse");
    try {
      return await attempt("streamable-http");
    } catch (error) {
      const status = error instanceof StreamableHTTPError ? error.code : undefined;
      // Servers that only speak the 2024-11-05 transport refuse the POST (404, 405, 400).
      if (
        upstream.transport === null &&
        status !== undefined &&
        status >= 400 &&
        status < 500 &&
        status !== 401 &&
        status !== 403
      ) {
        return await attempt("sse");
      }
      throw error;
    }
  } catch (error) {
    throw asUpstreamFailure(error, new URL(upstream.url).host, limits.totalTimeoutMs);
  }
}

/** Any failure of a contact as an `AppError` a person can read; the original stays the cause, for logs. */
export function asUpstreamFailure(error: unknown, host: string, totalMs: number): AppError {
  const found = findAppError(error);
  if (found) return found;
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout)
      return upstreamError(`${host} did not answer within ${totalMs} ms.`, { cause: error });
    return upstreamError(`${host} answered with an error: ${error.message.slice(0, 300)}`, { retryable: false, cause: error });
  }
  // Only the transports' own errors carry an HTTP status in `code`; other errors with a numeric
  // code (a DOMException's, say) say nothing about what the server answered.
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const statusCode = (error as { code?: number }).code;
    const refused = statusCode === 401 || statusCode === 403;
    return upstreamError(
      refused
        ? `${host} refused the credentials (HTTP ${statusCode}); check the server's headers.`
        : `${host} answered HTTP ${statusCode ?? "error"}.`,
      { statusCode, retryable: !refused && (statusCode === undefined || statusCode >= 500), cause: error },
    );
  }
  return upstreamError(`${host} could not be used as an MCP server.`, { cause: error });
}

function findAppError(error: unknown): AppError | undefined {
  for (let current = error, i = 0; current && i < 5; current = (current as { cause?: unknown }).cause, i++) {
    if (current instanceof AppError) return current;
  }
  return undefined;
}
