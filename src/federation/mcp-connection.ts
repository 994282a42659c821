import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import pkg from "../../package.json" with { type: "json" };
import { AppError } from "../errors.ts";
import { FEDERATION_HEADER, type FetchLimits, guardedFetch } from "./guarded-fetch.ts";
import { type PooledSession, type SessionScope, sessionKey, sessionPool } from "./session-pool.ts";
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

/** What a contact may do beyond running `use`. */
export interface ContactOptions {
  /** Called when the server says its tools changed. */
  onToolsChanged?: () => void;
  /** Reuse a session the server gave an earlier contact with the same scope and credentials, and keep this one. */
  reuse?: SessionScope;
  /** Every session id the server gives or a pooled one resumed: secrets, to be masked in what comes back. */
  onSessionId?: (sessionId: string) => void;
}

/**
 * Connects to an external MCP server with the SDK's `Client` (Streamable HTTP, falling back to the
 * older HTTP+SSE transport when the server answers the POST with a 4xx), runs `use`, and closes.
 * Every request goes through `guardedFetch`; `use` gets the remaining time budget for its requests.
 * With `reuse`, a session the server opened for an earlier contact is resumed without a handshake
 * (see `session-pool.ts`), and one that is gone is replaced once. Failures come out as
 * `upstream_failed` (502) with details, or `unsafe_url`.
 */
export async function withUpstream<T>(
  upstream: Upstream,
  limits: FetchLimits,
  use: (client: Client, options: { timeout: number }) => Promise<T>,
  { onToolsChanged, reuse, onSessionId }: ContactOptions = {},
): Promise<Contact<T>> {
  const started = Date.now();
  // Until the server has answered `initialize`, an answer must start within the connect timeout;
  // after that a tool may take the whole budget, since a JSON-mode server sends headers only at the end.
  let answerWithinMs = limits.connectTimeoutMs;
  // The pooled session the current attempt resumed, until the attempt ends.
  let resumed: string | undefined;
  const guarded = async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set(FEDERATION_HEADER, "1");
    const resumes = resumed !== undefined && headers.get("mcp-session-id") === resumed;
    const send = async () => {
      const response = await guardedFetch(url, { ...init, headers }, { ...limits, connectTimeoutMs: answerWithinMs });
      const given = response.headers.get("mcp-session-id");
      if (given) onSessionId?.(given);
      // Streamable HTTP, session management: a 404 to a request carrying a session id means the
      // session is gone, and the request was not processed. The SDK's example servers and the
      // reference everything server answer 400 ("No valid session ID provided") instead; a 400 is
      // not processed either.
      if (resumes && (response.status === 404 || response.status === 400)) {
        await response.body?.cancel();
        throw new SessionGone("The server no longer holds the session.");
      }
      return response;
    };
    const { bearer } = upstream;
    if (!bearer) return send();
    // Every request, the SSE stream and the session's end included, is sent again once with a renewed token.
    for (let token = bearer.token(); ; token = await bearer.renew(token)) {
      headers.set("Authorization", `Bearer ${token}`);
      const response = await send();
      if (response.status !== 401) return response;
      await response.body?.cancel();
      if (resumes) {
        // The session was kept under the refused token: it is not carried over to the renewed one,
        // which opens a session of its own (the refused request was not processed).
        await bearer.renew(token);
        throw new SessionGone("The server refused the token the session was opened with.");
      }
    }
  };
  const budget = () => ({ timeout: Math.max(1, limits.totalTimeoutMs - (Date.now() - started)) });
  const keyNow = () =>
    reuse && sessionKey(reuse, { url: upstream.url, headers: upstream.headers, token: upstream.bearer?.token() });
  const attempt = async (kind: TransportKind, resume?: PooledSession): Promise<Contact<T>> => {
    const client = new Client(
      { name: "weft", version: pkg.version },
      { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
    );
    if (onToolsChanged) client.setNotificationHandler(ToolListChangedNotificationSchema, async () => onToolsChanged());
    const url = new URL(upstream.url);
    const requestInit = { headers: upstream.headers };
    const transport =
      kind === "streamable-http"
        ? new StreamableHTTPClientTransport(url, {
            fetch: guarded,
            requestInit,
            redirectPolicy: "follow",
            sessionId: resume?.sessionId,
          })
        : new SSEClientTransport(url, {
            fetch: guarded,
            requestInit,
            eventSourceInit: { fetch: guarded },
            redirectPolicy: "follow",
          });
    resumed = resume?.sessionId;
    let kept = false;
    let gone = false;
    try {
      if (resume && transport instanceof StreamableHTTPClientTransport) {
        // `connect` skips `initialize` when the transport already has a session id. The resumed
        // client then lacks what `initialize` would have told it, which Weft does not use: server
        // capabilities only matter with `enforceStrictCapabilities` (off), list-changed
        // notifications are handled without them, and `callTool` validates output schemas only for
        // tools this client listed itself, which a per-contact client never did.
        transport.setProtocolVersion(resume.protocolVersion);
        answerWithinMs = limits.totalTimeoutMs;
      } else {
        answerWithinMs = limits.connectTimeoutMs;
      }
      await client.connect(transport, budget());
      answerWithinMs = limits.totalTimeoutMs;
      const openedWith = upstream.bearer?.token();
      const value = await use(client, budget());
      if (transport instanceof StreamableHTTPClientTransport && upstream.bearer?.token() === openedWith) {
        kept = await keep(transport);
      }
      return { value, transport: kind, latencyMs: Date.now() - started };
    } catch (error) {
      gone = error instanceof SessionGone;
      throw error;
    } finally {
      // A session not kept for reuse is ended (DELETE, bounded like any request; a server may
      // refuse with 405), so a stateful server does not keep one per contact. One the server said
      // is gone needs no ending.
      const ending = !kept && !gone && transport instanceof StreamableHTTPClientTransport && transport.sessionId;
      resumed = undefined;
      if (ending) {
        answerWithinMs = Math.min(limits.connectTimeoutMs, SESSION_END_TIMEOUT_MS);
        await transport.terminateSession().catch(() => undefined);
      }
      await client.close().catch(() => undefined);
    }
  };
  /**
   * Ends a session of this key that sat unused past the pool's idle time, beside the contact rather
   * than before it: nothing waits for the answer, and a Worker may drop the request once it has
   * answered its own. Some servers keep sessions until they restart, and without this would keep
   * one for every pause of a caller longer than the idle time.
   */
  const endIdle = (idle: PooledSession) => {
    onSessionId?.(idle.sessionId);
    const headers = new Headers(upstream.headers);
    headers.set(FEDERATION_HEADER, "1");
    headers.set("mcp-session-id", idle.sessionId);
    headers.set("mcp-protocol-version", idle.protocolVersion);
    // The token as it is: a refusal here is no reason to renew it (the call itself will say).
    if (upstream.bearer) headers.set("Authorization", `Bearer ${upstream.bearer.token()}`);
    const ending = { ...limits, connectTimeoutMs: Math.min(limits.connectTimeoutMs, SESSION_END_TIMEOUT_MS) };
    void guardedFetch(upstream.url, { method: "DELETE", headers }, ending)
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  };
  /** Gives a session back to the pool for the next contact; false when it cannot be kept. */
  const keep = async (transport: StreamableHTTPClientTransport): Promise<boolean> => {
    const { sessionId, protocolVersion } = transport;
    const key = await keyNow();
    if (!key || !sessionId || !protocolVersion) return false;
    return sessionPool.give(key, { sessionId, protocolVersion });
  };
  try {
    if (upstream.transport === "sse") return await attempt("sse");
    const key = await keyNow();
    const { session: pooled, stale } = key ? sessionPool.take(key) : { session: undefined, stale: [] };
    for (const idle of stale) endIdle(idle);
    if (pooled) {
      onSessionId?.(pooled.sessionId);
      try {
        return await attempt("streamable-http", pooled);
      } catch (error) {
        // A session that is gone is replaced by a new one, once, and `use` run again: the request
        // refused was not processed, and those before it in `use` (pages of a tool list) only read.
        // Any other failure is the contact's, even when a request sent after it (the SDK's
        // `notifications/cancelled` after a timeout, the DELETE) then finds the session gone.
        if (!(error instanceof SessionGone)) throw error;
      }
    }
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
    throw asUpstreamFailure(error, {
      host: new URL(upstream.url).host,
      totalMs: limits.totalTimeoutMs,
      elapsedMs: Date.now() - started,
    });
  }
}

/**
 * A pooled session the server no longer holds (404 or 400 to a request carrying it), or holds under
 * a token it now refuses: the request was not processed, and a new session may send it again.
 */
class SessionGone extends Error {}

/**
 * How much sooner than the budget the SDK's own timeout may fire: its timer is set from the budget
 * left when a request starts, so it fires when the whole budget is spent, give or take the clock.
 */
const TIMER_SLACK_MS = 100;

/** Where a failed contact was going, and how long it had run against its budget. */
export interface FailedContact {
  host: string;
  totalMs: number;
  elapsedMs: number;
}

/** Any failure of a contact as an `AppError` a person can read; the original stays the cause, for logs. */
export function asUpstreamFailure(error: unknown, { host, totalMs, elapsedMs }: FailedContact): AppError {
  const found = findAppError(error);
  if (found) return found;
  if (error instanceof McpError) {
    // The SDK reports its own timeout as -32001, the code a server may also answer with (JSON-RPC
    // leaves -32000 to -32099 to servers): only a contact that used up its budget timed out.
    if (error.code === ErrorCode.RequestTimeout && elapsedMs >= totalMs - TIMER_SLACK_MS) {
      return upstreamError(`${host} did not answer within ${totalMs} ms.`, { cause: error });
    }
    return answeredError(error, host);
  }
  // Only the transports' own errors carry an HTTP status in `code`; other errors with a numeric
  // code (a DOMException's, say) say nothing about what the server answered, and an SSE error
  // without one had no answer at all (its fetch failed).
  const statusCode = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  if (statusCode !== undefined && statusCode < 400) {
    // Below 400 is no failure status: the Streamable HTTP transport gives -1, and the SSE one the
    // 200, for an answer that is neither JSON nor an event stream (a web page at that URL, say).
    // The server answered, not as an MCP server, and will answer so again.
    return upstreamError(`${host} did not answer as an MCP server (neither JSON nor an event stream).`, {
      retryable: false,
      cause: error,
    });
  }
  if (statusCode !== undefined) {
    const refused = statusCode === 401 || statusCode === 403;
    return upstreamError(
      refused
        ? `${host} refused the credentials (HTTP ${statusCode}); check the server's headers.`
        : `${host} answered HTTP ${statusCode}.`,
      { statusCode, retryable: !refused && statusCode >= 500, cause: error },
    );
  }
  return upstreamError(`${host} could not be used as an MCP server.`, { cause: error });
}

/**
 * A JSON-RPC error the server answered, with its code. Retrying cannot help when the server refused
 * the request itself; only its internal error (-32603) is its own trouble, which may pass.
 */
function answeredError(error: McpError, host: string): AppError {
  const message = error.message.replace(/^MCP error -?\d+: /, "").slice(0, 300);
  return upstreamError(`${host} answered with JSON-RPC error ${error.code}: ${message}`, {
    rpcCode: error.code,
    retryable: error.code === ErrorCode.InternalError,
    cause: error,
  });
}

function findAppError(error: unknown): AppError | undefined {
  for (let current = error, i = 0; current && i < 5; current = (current as { cause?: unknown }).cause, i++) {
    if (current instanceof AppError) return current;
  }
  return undefined;
}
