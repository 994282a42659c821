import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { changing, freshAccount, fullAccount, IDS, MIGRATIONS, madeForEachTest, runScript } from "./fake-account.ts";

const { folder: at, worker } = madeForEachTest();

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
