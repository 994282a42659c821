import { describe, expect, it } from "vitest";
import type { AppError } from "../../src/errors.ts";
import { DEFAULT_LIMITS, type FetchLimits, guardedFetch } from "../../src/federation/guarded-fetch.ts";

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function limits(handler: Handler, overrides: Partial<FetchLimits> = {}): FetchLimits {
  const fake = (async (url: string, init: RequestInit) => handler(url, init)) as typeof fetch;
  return { ...DEFAULT_LIMITS, allowLocal: false, fetch: fake, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected a failure");
}

const redirect = (to: string, status = 302) => new Response(null, { status, headers: { Location: to } });

describe("guarded fetch", () => {
  it("refuses a private first URL before any request is made", async () => {
    let calls = 0;
    const error = await failure(
      guardedFetch(
        "https://10.0.0.5/mcp",
        {},
        limits(() => {
          calls++;
          return new Response("x");
        }),
      ),
    );
    expect(error.code).toBe("unsafe_url");
    expect(calls).toBe(0);
  });

  it("follows a redirect by hand and checks each hop", async () => {
    const seen: string[] = [];
    const res = await guardedFetch(
      "https://a.example.com/mcp",
      {},
      limits((url) => {
        seen.push(url);
        return url.startsWith("https://a.") ? redirect("https://b.example.com/mcp", 307) : new Response("ok");
      }),
    );
    expect(await res.text()).toBe("ok");
    expect(seen).toEqual(["https://a.example.com/mcp", "https://b.example.com/mcp"]);
  });

  it("refuses a redirect to a private address as a non-retryable upstream failure", async () => {
    const seen: string[] = [];
    const error = await failure(
      guardedFetch(
        "https://a.example.com/mcp",
        {},
        limits((url) => {
          seen.push(url);
          return redirect("http://169.254.169.254/latest");
        }),
      ),
    );
    expect(error.code).toBe("upstream_failed");
    expect(error.details).toMatchObject({ is_upstream: true, retryable: false, status_code: 302 });
    expect(seen).toEqual(["https://a.example.com/mcp"]);
  });

  it("stops after three redirects", async () => {
    let calls = 0;
    const error = await failure(
      guardedFetch(
        "https://a.example.com/0",
        {},
        limits(() => redirect(`https://a.example.com/${++calls}`)),
      ),
    );
    expect(error.code).toBe("upstream_failed");
    expect(error.message).toContain("more than 3");
    expect(calls).toBe(4);
  });

  it("drops secret headers when a redirect leaves the origin", async () => {
    const received: Headers[] = [];
    await guardedFetch(
      "https://a.example.com/mcp",
      {
        method: "POST",
        body: "{}",
        headers: { Authorization: "Bearer s3cret", "X-Api-Key": "k", "Content-Type": "application/json" },
      },
      limits((url, init) => {
        received.push(new Headers(init.headers));
        return url.startsWith("https://a.") ? redirect("https://other.example.net/mcp", 307) : new Response("ok");
      }),
    );
    expect(received[0]?.get("Authorization")).toBe("Bearer s3cret");
    expect(received[1]?.get("Authorization")).toBeNull();
    expect(received[1]?.get("X-Api-Key")).toBeNull();
    expect(received[1]?.get("Content-Type")).toBe("application/json");
  });

  it("fails a body larger than the limit, declared or streamed", async () => {
    const declared = await failure(
      guardedFetch(
        "https://a.example.com/",
        {},
        limits(() => new Response("x".repeat(100), { headers: { "Content-Length": "100" } }), { maxBytes: 10 }),
      ),
    );
    expect(declared.message).toContain("more than 10 bytes");
    const undeclared = await guardedFetch(
      "https://a.example.com/",
      {},
      limits(() => new Response("x".repeat(100)), { maxBytes: 10 }),
    );
    expect((await failure(undeclared.text())).message).toContain("more than 10 bytes");
    const streamed = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(8));
      },
    });
    const res = await guardedFetch(
      "https://a.example.com/",
      {},
      limits(() => new Response(streamed), { maxBytes: 100 }),
    );
    const error = await failure(res.arrayBuffer());
    expect(error.code).toBe("upstream_failed");
  });

  it("gives up on a server that does not answer in time", async () => {
    const hang: Handler = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    const error = await failure(guardedFetch("https://a.example.com/", {}, limits(hang, { connectTimeoutMs: 50 })));
    expect(error.code).toBe("upstream_failed");
    expect(error.message).toContain("within 50 ms");
    expect(error.details).toMatchObject({ retryable: true });
  });
});
