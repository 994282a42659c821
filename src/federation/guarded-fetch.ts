import { AppError } from "../errors.ts";
import { upstreamError } from "./upstream-error.ts";
import { checkOutboundUrl, type UrlPolicy } from "./url-guard.ts";

/** The limits every outbound call to an external server runs under. */
export interface FetchLimits extends UrlPolicy {
  /** Until the response headers arrive (Workers offer no separate TCP connect timer). */
  connectTimeoutMs: number;
  /** Until the whole body has been read. */
  totalTimeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** The network; tests pass a stand-in. */
  fetch?: typeof fetch;
}

export const DEFAULT_LIMITS: Omit<FetchLimits, "allowLocal"> = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 20_000,
  maxBytes: 4 * 1024 * 1024,
  maxRedirects: 3,
};

/**
 * Marks every request Weft's MCP client sends. A Weft receiving it serves the request without
 * contacting external servers of its own (`FederationService.relayed`), which ends any loop.
 */
export const FEDERATION_HEADER = "X-Weft-Federation";

// Headers that may follow a redirect to another origin; anything else may carry a secret.
const CROSS_ORIGIN_HEADERS = new Set(["accept", "content-type", "mcp-protocol-version", "last-event-id", "x-weft-federation"]);

/**
 * `fetch` for calls to external servers: every URL, including each redirect hop (followed by hand,
 * at most `maxRedirects`), passes `checkOutboundUrl`; headers must arrive within
 * `connectTimeoutMs` and the body within `totalTimeoutMs`; a body past `maxBytes` fails the read.
 * Secret headers are dropped when a redirect leaves the origin. Failures are 502 `upstream_failed`
 * (a refused first URL stays `unsafe_url`).
 *
 * @example const res = await guardedFetch("https://mcp.example.com/mcp", { method: "POST" }, { ...DEFAULT_LIMITS, allowLocal: false })
 */
export async function guardedFetch(input: string | URL | Request, init: RequestInit, limits: FetchLimits): Promise<Response> {
  const request = new Request(input, init);
  const doFetch = limits.fetch ?? fetch;
  const total = AbortSignal.timeout(limits.totalTimeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, total]) : total;
  let url = checkOutboundUrl(request.url, limits);
  let method = request.method;
  let headers = new Headers(request.headers);
  let body: ArrayBuffer | null = method === "GET" || method === "HEAD" ? null : await request.arrayBuffer();
  for (let hop = 0; ; hop++) {
    const response = await fetchHeaders(doFetch, url, { method, headers, body, signal }, limits);
    const location = response.headers.get("Location");
    if (response.status < 300 || response.status >= 400 || !location) return limitBody(response, limits.maxBytes, url);
    await response.body?.cancel();
    if (hop >= limits.maxRedirects) throw upstreamError(`${url.host} redirected more than ${limits.maxRedirects} times.`);
    let next: URL;
    try {
      next = checkOutboundUrl(new URL(location, url).href, limits);
    } catch (error) {
      const reason = error instanceof AppError ? error.message : "an unreadable Location";
      throw upstreamError(`${url.host} redirected to a refused address. ${reason}`, {
        statusCode: response.status,
        retryable: false,
      });
    }
    if (next.origin !== url.origin) headers = keepOnly(headers, CROSS_ORIGIN_HEADERS);
    // 303, and 301/302 after a POST, turn into a GET without a body, as browsers do.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      method = "GET";
      body = null;
      headers.delete("Content-Type");
    }
    url = next;
  }
}

async function fetchHeaders(
  doFetch: typeof fetch,
  url: URL,
  init: { method: string; headers: Headers; body: ArrayBuffer | null; signal: AbortSignal },
  limits: FetchLimits,
): Promise<Response> {
  const connect = new AbortController();
  const timer = setTimeout(() => connect.abort(), limits.connectTimeoutMs);
  try {
    return await doFetch(url.href, { ...init, redirect: "manual", signal: AbortSignal.any([init.signal, connect.signal]) });
  } catch (error) {
    if (connect.signal.aborted)
      throw upstreamError(`${url.host} did not answer within ${limits.connectTimeoutMs} ms.`, { cause: error });
    if (init.signal.aborted) throw upstreamError(`${url.host} did not answer in time.`, { cause: error });
    throw upstreamError(`${url.host} could not be reached.`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

function keepOnly(headers: Headers, allowed: ReadonlySet<string>): Headers {
  const kept = new Headers();
  for (const [name, value] of headers) if (allowed.has(name.toLowerCase())) kept.set(name, value);
  return kept;
}

/** The same response, its body failing once more than `maxBytes` have been read. */
function limitBody(response: Response, maxBytes: number, url: URL): Response {
  const tooLarge = () => upstreamError(`${url.host} answered more than ${maxBytes} bytes.`, { statusCode: response.status });
  const declared = Number(response.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return response;
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}
