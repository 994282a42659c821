import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");

/**
 * The scenarios of `@modelcontextprotocol/conformance server` (0.1.16) that apply to Weft. The
 * others call the suite's own fixtures (tools named `test_simple_text`, `json_schema_2020_12_tool`
 * and so on, resources `test://...`, prompts `test_simple_prompt`) or features Weft does not offer
 * (logging, progress, server-pushed sampling and elicitation, subscriptions); docs/mcp.md lists
 * them and why.
 */
const APPLICABLE = [
  "server-initialize",
  "ping",
  "completion-complete",
  "tools-list",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];

let proxy: Server;
let proxyUrl: string;

/**
 * A small proxy in front of `npm run dev` that adds the API key, as the suite sends none. It
 * passes every other header through untouched, Host and Origin included, so the rebinding
 * scenario reaches Weft as the suite sent it.
 */
beforeAll(async () => {
  const target = new URL(baseUrl);
  proxy = createServer((req, res) => {
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: "Bearer dev-boss-key" },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => res.writeHead(502).end(String(error)));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const address = proxy.address() as { port: number };
  proxyUrl = `http://localhost:${address.port}/mcp`;
});

afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

function runSuite(scenario: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // The project's Node (24) first on PATH: the suite needs Node 22 or newer.
    const bin = join(process.cwd(), "node_modules/.bin");
    const child = spawn(join(bin, "conformance"), ["server", "--url", proxyUrl, "--scenario", scenario], {
      cwd,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the MCP conformance suite against npm run dev", () => {
  for (const scenario of APPLICABLE) {
    it(`passes ${scenario}`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), "weft-conformance-"));
      try {
        const { code, output } = await runSuite(scenario, cwd);
        const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
        expect(summary, output).not.toBeNull();
        expect(Number(summary?.[2]), output).toBeGreaterThan(0);
        expect(Number(summary?.[3]), output).toBe(0);
        expect(code, output).toBe(0);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
});
