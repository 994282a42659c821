import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../src/config.ts";
import { Misconfigured } from "../src/config-problems.ts";
import worker from "../src/index.ts";

const KEY = "k7Yp2mXq9sVt4wZr8bNc3dFg6hJk1LmQ0aSe5uWi2yO=";

/** Production as `npm run deploy` leaves it, bindings included, with `changes` over it. */
function production(changes: Record<string, string | undefined> = {}): Env {
  const vars: Record<string, unknown> = {
    ...env,
    ENVIRONMENT: "production",
    VECTOR_INDEX: "vectorize",
    EMBEDDINGS: "workers-ai",
    RERANKER: "workers-ai",
    CHAT_MODEL: "workers-ai",
    AI: {} as Ai,
    VECTORIZE: {} as VectorizeIndex,
    MCP_SECRETS_KEY: KEY,
    PUBLIC_URL: "https://weft.example.com",
    ALLOWED_HOSTS: "weft.example.com,weft.acme.workers.dev",
  };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete vars[name];
    else vars[name] = value;
  }
  return vars as unknown as Env;
}

function problemsOf(bindings: Env) {
  try {
    readConfig(bindings);
  } catch (error) {
    if (error instanceof Misconfigured) return error.problems;
    throw error;
  }
  return [];
}

async function fetchWith(bindings: Env, url: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url) as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
  await waitOnExecutionContext(ctx);
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

afterEach(() => vi.restoreAllMocks());

describe("required configuration in production", () => {
  it("is read when every setting is there", () => {
    const config = readConfig(production());
    expect(config.publicUrl).toBe("https://weft.example.com");
    expect(config.allowedHosts).toEqual(["weft.example.com", "weft.acme.workers.dev"]);
    expect(config.federation).toMatchObject({ secretsKey: KEY, olderSecretsKeys: [] });
  });

  it("names every missing setting at once", () => {
    const problems = problemsOf(production({ MCP_SECRETS_KEY: undefined, PUBLIC_URL: "", ALLOWED_HOSTS: "" }));
    expect(problems.map((p) => p.name)).toEqual(["MCP_SECRETS_KEY", "PUBLIC_URL", "ALLOWED_HOSTS"]);
    expect(problems.find((p) => p.name === "MCP_SECRETS_KEY")?.problem).toContain("npm run deploy");
  });

  it("names malformed settings, and never shows a secret's value", () => {
    const short = "hunter2-but-longer";
    const problems = problemsOf(
      production({
        MCP_SECRETS_KEY: short,
        PUBLIC_URL: "http://weft.example.com/app",
        ALLOWED_HOSTS: "https://weft.example.com",
      }),
    );
    expect(problems.map((p) => p.name).sort()).toEqual(["ALLOWED_HOSTS", "MCP_SECRETS_KEY", "PUBLIC_URL"]);
    expect(JSON.stringify(problems)).not.toContain(short);
    expect(problems.find((p) => p.name === "MCP_SECRETS_KEY")?.problem).toContain("too short");
    expect(problems.find((p) => p.name === "ALLOWED_HOSTS")?.problem).toContain("https://weft.example.com");
    expect(problemsOf(production({ MCP_SECRETS_KEY: `${KEY} ` }))[0]?.problem).toContain("whitespace");
  });

  it("asks that the host of PUBLIC_URL be served", () => {
    const problems = problemsOf(production({ ALLOWED_HOSTS: "weft.acme.workers.dev" }));
    expect(problems).toEqual([{ name: "ALLOWED_HOSTS", problem: expect.stringContaining("weft.example.com") }]);
  });

  it("asks nothing of the sort under wrangler dev and the tests, whose defaults serve localhost", () => {
    const { MCP_SECRETS_KEY: _, ...withoutKey } = env;
    expect(readConfig({ ...withoutKey, PUBLIC_URL: "" } as unknown as Env).federation.secretsKey).toBeUndefined();
    expect(problemsOf({ ...env, ALLOWED_HOSTS: "localhost:8787" } as unknown as Env).map((p) => p.name)).toEqual([
      "ALLOWED_HOSTS",
    ]);
  });

  it("seals with MCP_SECRETS_KEY_NEXT while a rotation runs, and still opens with the key before it", () => {
    const next = "Zq8Lm3Np6Rt9Vw2Xy5Ab8Cd1Ef4Gh7Jk0Mn3Pq6St9=";
    expect(readConfig(production({ MCP_SECRETS_KEY_NEXT: next })).federation).toMatchObject({
      secretsKey: next,
      olderSecretsKeys: [KEY],
    });
    expect(problemsOf(production({ MCP_SECRETS_KEY_NEXT: "short" })).map((p) => p.name)).toEqual(["MCP_SECRETS_KEY_NEXT"]);
  });
});

describe("a misconfigured deployment", () => {
  it("answers /healthz, on any host, with 503 misconfigured naming the settings, and logs them once", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const bindings = production({ PUBLIC_URL: "", ALLOWED_HOSTS: "" });
    const health = await fetchWith(bindings, "https://weft.acme.workers.dev/healthz");
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ ok: false, status: "misconfigured", misconfigured: ["PUBLIC_URL", "ALLOWED_HOSTS"] });
    expect(health.body.problems).toHaveLength(2);
    await fetchWith(bindings, "https://weft.acme.workers.dev/healthz");
    const lines = logged.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"misconfigured"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PUBLIC_URL");
  });

  it("answers every other route with 503 misconfigured and serves nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const bindings = production({ MCP_SECRETS_KEY: undefined });
    for (const path of ["/mcp", "/api/knowledge-bases", "/api/admin/workshops", "/oauth/authorize"]) {
      const res = await fetchWith(bindings, `https://weft.example.com${path}`);
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: "misconfigured", details: { settings: ["MCP_SECRETS_KEY"] } });
      expect(res.body.error.message).toContain("MCP_SECRETS_KEY");
    }
  });
});
