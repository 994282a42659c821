import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { deployedOrigins, hostSettings } from "../../scripts/deploy/deployed-hosts.ts";
import {
  type FakeState,
  type FakeWorker,
  type Folder,
  fakeWorker,
  folder,
  fullAccount,
  IDS,
  MIGRATIONS,
  runScript,
} from "./fake-account.ts";

const made: Folder[] = [];
const servers: FakeWorker[] = [];
afterEach(async () => {
  for (const f of made.splice(0)) f.remove();
  for (const s of servers.splice(0)) await s.close();
});

function at(state: FakeState, options: Parameters<typeof folder>[1] = {}) {
  const f = folder(state, options);
  made.push(f);
  return f;
}

async function worker() {
  const w = await fakeWorker();
  servers.push(w);
  return w;
}

/** A first deploy: only the directory's database exists; no shard, KV namespace, metadata index or Worker yet. */
function freshAccount(): FakeState {
  const state = fullAccount();
  state.d1 = state.d1.filter((d) => d.name === "weft");
  state.applied = { [IDS.DB]: [] };
  state.kv = [];
  state.metadata = {};
  state.workflows = [];
  state.worker = null;
  state.operators = 0;
  state.workshops = 0;
  return state;
}

const changing = (calls: string[][]) =>
  calls.filter(
    (call) =>
      call.includes("create") ||
      call.includes("create-metadata-index") ||
      call[0] === "deploy" ||
      call.includes("apply") ||
      call.includes("put") ||
      call.includes("--file"),
  );

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

describe("npm run deploy", () => {
  it("creates what is missing, migrates every database before the code goes live, fills the hosts, checks /healthz and makes the first way in", async () => {
    const w = await worker();
    const state = freshAccount();
    state.deployTargets = [w.origin];
    const f = at(state, { vars: { ALLOWED_HOSTS: "", PUBLIC_URL: "" }, placeholders: true });
    const run = await runScript(
      "deploy.ts",
      ["--yes", "--config", f.config, "--workshop", "锦绣制衣", "--boss", "王老板", "--username", "wang"],
      f,
    );
    expect(run.status, run.output).toBe(0);
    const after = f.read();
    const shard = after.d1.find((d) => d.name === "weft-shard-1");
    expect(f.toml()).toContain(`database_id = "${IDS.DB}"`);
    expect(f.toml()).toContain(`database_id = "${shard?.uuid}"`);
    expect(f.toml()).toContain(`id = "${after.kv.find((k) => k.title === "weft-oauth-kv")?.id}"`);
    expect(run.stdout).toContain(
      `created D1 database weft-shard-1 (binding SHARD_1): ${shard?.uuid}, written into wrangler.toml`,
    );
    expect(run.stdout).toContain(`wrote the id of weft (${IDS.DB}) into wrangler.toml for DB`);
    expect(after.metadata["weft-chunks"]).toEqual([{ propertyName: "kb_id", indexType: "String" }]);
    // Every database is migrated before the first upload, and shipped its trees.
    expect(after.migratedBeforeDeploy).toEqual({ DB: 0, SHARD_1: 0 });
    expect(after.applied[IDS.DB]).toEqual(MIGRATIONS);
    expect(after.applied[shard?.uuid as string]).toEqual(MIGRATIONS);
    expect(new Set(after.executed.filter((e) => e.sql.includes("consult_trees")).map((e) => e.binding))).toEqual(
      new Set(["DB", "SHARD_1"]),
    );
    // The first upload carries the secret; the second the hosts read from it.
    const host = new URL(w.origin).hostname;
    expect(after.deploys).toEqual([
      { ALLOWED_HOSTS: "", PUBLIC_URL: "", secrets: ["MCP_SECRETS_KEY"] },
      { ALLOWED_HOSTS: host, PUBLIC_URL: w.origin, secrets: [] },
    ]);
    expect(run.stdout).toContain(`ALLOWED_HOSTS = "${host}", PUBLIC_URL = "${w.origin}"`);
    const key = after.worker?.secrets.MCP_SECRETS_KEY as string;
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(run.output).not.toContain(key);
    const secretsFile = after.calls.find((c) => c[0] === "deploy" && c.includes("--secrets-file"));
    expect(existsSync(secretsFile?.[secretsFile.indexOf("--secrets-file") + 1] as string)).toBe(false);
    expect(w.requests.some((r) => r.path === "/healthz")).toBe(true);
    expect(run.stdout).toContain("DB: current");
    // The operator's key, shown once, makes the first workshop, whose boss's link is printed.
    const operatorKey = /WEFT_OPERATOR_KEY=(wop_\S+)/.exec(run.stdout)?.[1];
    expect(after.executed.some((e) => e.binding === "DB" && e.sql.includes("INSERT INTO operator_keys"))).toBe(true);
    const asked = w.requests.find((r) => r.path === "/api/admin/workshops");
    expect(asked?.authorization).toBe(`Bearer ${operatorKey}`);
    expect(JSON.parse(asked?.body ?? "{}")).toEqual({ workshop_name: "锦绣制衣", name: "王老板", username: "wang" });
    expect(run.stdout).toContain("https://weft.example.com/set-password#token=first-link");
    expect(run.stdout).toContain(`Weft is live at ${w.origin}`);
  });

  it("without --yes and without a terminal to ask in, creates and deploys nothing", async () => {
    const f = at(freshAccount());
    const run = await runScript("deploy.ts", ["--config", f.config], f);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("run again with --yes");
    expect(changing(f.read().calls)).toEqual([]);
  });

  it("on a current deployment deploys once, and says how to make the first workshop when there is none", async () => {
    const w = await worker();
    const state = fullAccount();
    state.workshops = 0;
    state.deployTargets = [w.origin];
    const f = at(state, { vars: { ALLOWED_HOSTS: "127.0.0.1", PUBLIC_URL: w.origin } });
    const run = await runScript("deploy.ts", ["--config", f.config], f);
    expect(run.status, run.output).toBe(0);
    expect(f.read().deploys).toHaveLength(1);
    expect(run.stdout).not.toContain("WEFT_OPERATOR_KEY=wop_");
    expect(run.stdout).toContain(
      `WEFT_URL=${w.origin} WEFT_OPERATOR_KEY=<your operator key> npm run workshop:create -- --remote`,
    );
  });

  it("fails, naming the databases, when /healthz says one is behind", async () => {
    const w = await worker();
    w.health.status = 503;
    w.health.body = {
      ok: false,
      status: "schema_behind",
      databases: { DB: { ok: true, missing_migrations: [] }, SHARD_1: { ok: false, missing_migrations: [MIGRATIONS.at(-1)] } },
    };
    const state = fullAccount();
    state.deployTargets = [w.origin];
    const f = at(state, { vars: { ALLOWED_HOSTS: "127.0.0.1", PUBLIC_URL: w.origin } });
    const run = await runScript("deploy.ts", ["--config", f.config, "--health-timeout", "1"], f);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`SHARD_1: lacks ${MIGRATIONS.at(-1)}`);
    expect(run.stderr).toContain("/healthz did not answer ok: 503");
  });

  it("asks to be signed in first", async () => {
    const state = fullAccount();
    state.loggedIn = false;
    const f = at(state);
    const run = await runScript("deploy.ts", ["--dry-run", "--config", f.config], f);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("npx wrangler login");
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
