import { describe, expect, it } from "vitest";
import { deployedOrigins, hostSettings } from "../../scripts/deploy/deployed-hosts.ts";
import { changing, freshAccount, fullAccount, MIGRATIONS, madeForEachTest, runScript } from "./fake-account.ts";

// Apart from test/scripts/deploy.test.ts so that the two run at once: each test waits on the
// script and wrangler stand-ins it starts.
const { folder: at } = madeForEachTest();

describe("npm run deploy -- --dry-run", () => {
  it("names a missing binding and a missing secret, and changes nothing", async () => {
    const f = at(freshAccount(), { vars: { ALLOWED_HOSTS: "", PUBLIC_URL: "" } });
    const before = f.toml();
    const run = await runScript("deploy.ts", ["--dry-run", "--config", f.config], f);
    expect(run.status, run.output).toBe(0);
    expect(run.stdout).toContain("ok      D1 DB: weft");
    expect(run.stdout).toContain("missing D1 database weft-shard-1 (binding SHARD_1)");
    expect(run.stdout).toContain("missing KV namespace weft-oauth-kv (binding OAUTH_KV)");
    expect(run.stdout).toContain("missing Vectorize metadata index kb_id (string) on weft-chunks");
    expect(run.stdout).toContain("missing MCP_SECRETS_KEY: a random one (32 bytes) is made and uploaded with the deploy");
    expect(run.stdout).toContain(`DB: ${MIGRATIONS.length} (${MIGRATIONS[0]} to ${MIGRATIONS.at(-1)})`);
    expect(run.stdout).toContain("ALLOWED_HOSTS and PUBLIC_URL empty");
    expect(run.stdout).toContain("Dry run: nothing was changed.");
    expect(run.stdout).toContain("- create D1 database weft-shard-1");
    expect(changing(f.read().calls)).toEqual([]);
    expect(f.toml()).toBe(before);
  });

  it("refuses a required secret it cannot make, naming it and how to set it", async () => {
    const state = fullAccount();
    state.worker = { secrets: {} };
    const f = at(state, {
      vars: {
        CHAT_MODEL: "openai-compatible",
        CHAT_BASE_URL: "https://open.bigmodel.cn/api/paas/v4",
        CHAT_MODEL_NAME: "glm-4.6",
      },
    });
    const run = await runScript("deploy.ts", ["--dry-run", "--config", f.config], f);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      "cannot deploy: Secret CHAT_API_KEY is not set: run `npx wrangler secret put CHAT_API_KEY --env production`",
    );
    expect(run.stderr).toContain("Nothing was deployed");
  });

  it("refuses what the Worker would answer misconfigured to", async () => {
    const f = at(fullAccount(), { vars: { ALLOWED_HOSTS: "https://weft.example.com", PUBLIC_URL: "https://weft.example.com" } });
    const run = await runScript("deploy.ts", ["--dry-run", "--config", f.config], f);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /cannot deploy: ALLOWED_HOSTS lists an entry that is not a host name \(https:\/\/weft.example.com\)/,
    );
  });

  it("says so when everything is there", async () => {
    const f = at(fullAccount(), { vars: { ALLOWED_HOSTS: "weft.example.com", PUBLIC_URL: "https://weft.example.com" } });
    const run = await runScript("deploy.ts", ["--dry-run", "--config", f.config], f);
    expect(run.status, run.output).toBe(0);
    expect(run.stdout).not.toContain("missing");
    expect(run.stdout).toContain("ok      MCP_SECRETS_KEY");
    expect(run.stdout).toContain("ok      Vectorize VECTORIZE: metadata index kb_id");
    expect(run.stdout).toContain("DB: none");
    expect(run.stdout).toContain("SHARD_1: none");
    expect(run.stdout).not.toContain("- create");
    expect(changing(f.read().calls)).toEqual([]);
  });

  it("reads every page of the account's Workflows, however few the API gives a page", async () => {
    const state = fullAccount();
    // Another Worker's 130 Workflows listed first: the one that is weft's is on the last page.
    state.workflows = [
      ...Array.from({ length: 130 }, (_, i) => ({ name: `other-${i}`, script_name: "other" })),
      { name: "weft-ingestion", script_name: "other" },
    ];
    state.workflowsPerPageCap = 25;
    const f = at(state, { vars: { ALLOWED_HOSTS: "weft.example.com", PUBLIC_URL: "https://weft.example.com" } });
    const run = await runScript("deploy.ts", ["--dry-run", "--config", f.config], f);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("'weft-ingestion' belongs to the Worker 'other'");
  });
});

describe("the deployed hosts", () => {
  const output = [
    "Uploaded weft (4.21 sec)",
    "Deployed weft triggers (1.02 sec)",
    "  https://weft.acme.workers.dev",
    "  weft.example.com (custom domain)",
    "  ops.example.com (custom domain - zone name: example.com) [production: enabled, previews: disabled]",
    "  shop.example.org/weft/* (zone name: example.org)",
    "  api.example.org/* (zone id: 0123abcd)",
    "  plain.example.org/*",
    "  *.example.net/* (zone name: example.net)",
    "  workflow: weft-ingestion",
    "  schedule: 0 3 * * *",
    "Current Version ID: 6a1c",
  ].join("\n");

  // Each line form wrangler 4.164's `renderRoute` and deploy print (read in its cli.js).
  it("are read from wrangler's output, custom domains first", async () => {
    expect(deployedOrigins(output)).toEqual([
      "https://weft.example.com",
      "https://ops.example.com",
      "https://shop.example.org",
      "https://api.example.org",
      "https://plain.example.org",
      "https://weft.acme.workers.dev",
    ]);
    expect(hostSettings(deployedOrigins(output))).toEqual({
      allowedHosts: "weft.example.com,ops.example.com,shop.example.org,api.example.org,plain.example.org,weft.acme.workers.dev",
      publicUrl: "https://weft.example.com",
    });
    expect(deployedOrigins("Uploaded weft (1 sec)\nNo targets deployed for weft (0.12 sec)")).toEqual([]);
  });
});
