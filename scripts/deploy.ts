// npm run deploy [-- --dry-run] [--yes] [--workshop NAME --boss PERSON --username USERNAME] [--config PATH]
// Takes [env.production] of wrangler.toml to a working deployment, in order: checks every binding
// against the account (creating what is missing after asking) and every required secret, checks the
// configuration as the Worker will, applies pending D1 migrations to every database, ships the
// decision trees, builds and deploys, fills ALLOWED_HOSTS and PUBLIC_URL from the deployed host
// when empty (and deploys again), waits for /healthz, and gives a fresh deployment its operator key
// (and its first workshop, when named). `--dry-run` only reads, and says what it would do.
// docs/deployment.md describes each step. Wrangler runs as a subprocess (WEFT_WRANGLER names another).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { MIGRATIONS } from "../src/schema.ts";
import { buildWeb } from "./build-web.ts";
import {
  applyMigrations,
  createDatabase,
  createMetadataIndex,
  createNamespace,
  createVectorIndex,
  readAccount,
  requireLogin,
  wranglerOutput,
} from "./deploy/account.ts";
import { describeDatabases, firstSignIn, waitForHealth } from "./deploy/after-deploy.ts";
import { deployedOrigins, hostSettings } from "./deploy/deployed-hosts.ts";
import { type Creation, makePlan, type Plan } from "./deploy/plan.ts";
import { readProductionConfig, setDatabaseId, setNamespaceId, setProductionVar } from "./deploy/production-config.ts";
import { shipTrees } from "./knowledge-ship.ts";
import { requireNode22, WRANGLER_TOML } from "./lib.ts";

requireNode22();
const { values } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    yes: { type: "boolean", short: "y", default: false },
    config: { type: "string", default: WRANGLER_TOML },
    workshop: { type: "string" },
    boss: { type: "string" },
    username: { type: "string" },
    "health-timeout": { type: "string", default: "120" },
  },
});
const configPath = resolve(values.config);
const target = ["--remote", "--env", "production", "-c", configPath];

const describe = (c: Creation) =>
  c.kind === "d1"
    ? `D1 database ${c.name} (binding ${c.binding})`
    : c.kind === "kv"
      ? `KV namespace ${c.title} (binding ${c.binding})`
      : c.kind === "vectorize"
        ? `Vectorize index ${c.name} (binding ${c.binding}, 1024 dimensions, cosine)`
        : `Vectorize metadata index ${c.property} (string) on ${c.index}`;

function printPlan(plan: Plan): void {
  console.log(`Bindings of [env.production] in ${configPath}:`);
  for (const line of plan.present) console.log(`  ok      ${line}`);
  for (const found of plan.ids)
    console.log(
      `  found   ${found.kind === "d1" ? "D1" : "KV"} ${found.binding}: ${found.name} (${found.id}), id not yet in wrangler.toml`,
    );
  for (const creation of plan.create) console.log(`  missing ${describe(creation)}`);
  console.log("Secrets of the production Worker:");
  for (const name of plan.secrets.present) console.log(`  ok      ${name}`);
  for (const name of plan.secrets.fromEnvironment)
    console.log(`  given   ${name} (from this command's environment, uploaded with the deploy)`);
  for (const name of plan.secrets.generate)
    console.log(`  missing ${name}: a random one (32 bytes) is made and uploaded with the deploy`);
  console.log("D1 migrations pending:");
  for (const [binding, pending] of Object.entries(plan.migrations)) {
    console.log(`  ${binding}: ${pending.length === 0 ? "none" : `${pending.length} (${pending[0]} to ${pending.at(-1)})`}`);
  }
  if (plan.hostsToSet.length > 0) {
    console.log(
      `Configuration: ${plan.hostsToSet.join(" and ")} empty in [env.production.vars]: set from the deployed host after the first upload.`,
    );
  }
  for (const blocker of plan.blockers) console.log(`  cannot deploy: ${blocker}`);
}

async function confirm(question: string): Promise<boolean> {
  if (values.yes) return true;
  if (!process.stdin.isTTY) {
    console.error(`${question}\nNot asked (no terminal): run again with --yes to allow it.`);
    return false;
  }
  const readline = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await readline.question(`${question} [y/N] `);
  readline.close();
  return /^y(es)?$/i.test(answer.trim());
}

function create(plan: Plan): void {
  for (const creation of plan.create) {
    if (creation.kind === "d1") {
      const id = createDatabase(configPath, creation.name);
      setDatabaseId(configPath, creation.binding, id);
      console.log(`  created ${describe(creation)}: ${id}, written into wrangler.toml`);
    } else if (creation.kind === "kv") {
      const id = createNamespace(configPath, creation.title);
      setNamespaceId(configPath, creation.binding, id);
      console.log(`  created ${describe(creation)}: ${id}, written into wrangler.toml`);
    } else if (creation.kind === "vectorize") {
      createVectorIndex(configPath, creation.name);
      console.log(`  created ${describe(creation)}`);
    } else {
      createMetadataIndex(configPath, creation.index, creation.property);
      console.log(`  created ${describe(creation)}`);
    }
  }
  for (const found of plan.ids) {
    if (found.kind === "d1") setDatabaseId(configPath, found.binding, found.id);
    else setNamespaceId(configPath, found.binding, found.id);
    console.log(`  wrote the id of ${found.name} (${found.id}) into wrangler.toml for ${found.binding}`);
  }
}

/** Deploys, with `secrets` uploaded beside the version (how a Worker that does not exist yet gets them). */
function deploy(secrets: Record<string, string>): string[] {
  const folder = mkdtempSync(join(tmpdir(), "weft-deploy-"));
  const file = join(folder, "secrets.json");
  try {
    const withSecrets = Object.keys(secrets).length > 0;
    if (withSecrets) writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
    const out = wranglerOutput([
      "deploy",
      "--env",
      "production",
      "-c",
      configPath,
      ...(withSecrets ? ["--secrets-file", file] : []),
    ]);
    return deployedOrigins(out);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

try {
  requireLogin();
  const plan = makePlan(configPath, readProductionConfig(configPath), MIGRATIONS);
  printPlan(plan);
  if (plan.blockers.length > 0) {
    console.error(
      `\nNothing was deployed: ${plan.blockers.length} thing${plan.blockers.length === 1 ? "" : "s"} above must be fixed first.`,
    );
    process.exit(1);
  }
  if (values["dry-run"]) {
    const would = [
      ...plan.create.map((c) => `create ${describe(c)}`),
      ...plan.ids.map((f) => `write the id of ${f.name} into wrangler.toml`),
      ...plan.secrets.generate.map((name) => `make and upload ${name}`),
      ...Object.entries(plan.migrations)
        .filter(([, pending]) => pending.length > 0)
        .map(([binding, pending]) => `apply ${pending.length} migration${pending.length === 1 ? "" : "s"} to ${binding}`),
      "ship the decision trees to every database, build the UI and deploy",
      ...(plan.hostsToSet.length > 0 ? [`set ${plan.hostsToSet.join(" and ")} from the deployed host and deploy again`] : []),
      "wait for /healthz to answer ok",
    ];
    console.log(`\nDry run: nothing was changed. A deploy would:\n${would.map((w) => `  - ${w}`).join("\n")}`);
    process.exit(0);
  }
  const changes = [...plan.create.map(describe), ...plan.secrets.generate.map((name) => `the secret ${name}`)];
  if (changes.length > 0 && !(await confirm(`Create ${changes.join(", ")}?`))) {
    console.error("Nothing was created or deployed.");
    process.exit(1);
  }

  console.log("\nCreating what is missing...");
  create(plan);
  console.log("Applying D1 migrations to every database, before the new code goes live...");
  for (const { binding } of readProductionConfig(configPath).d1) {
    const applied = applyMigrations(configPath, binding);
    console.log(`  ${binding}: ${applied.length === 0 ? "current" : `applied ${applied.join(", ")}`}`);
  }
  console.log("Shipping the decision trees to every database...");
  const trees = await shipTrees({ remote: true, config: configPath });
  console.log(`  ${trees.join(", ") || "none"}`);
  console.log("Building the browser UI and deploying...");
  await buildWeb();
  const secrets: Record<string, string> = {};
  for (const name of plan.secrets.generate) secrets[name] = randomBytes(32).toString("base64");
  for (const name of plan.secrets.fromEnvironment) secrets[name] = process.env[name] as string;
  const origins = deploy(secrets);
  console.log(`  deployed: ${origins.join(", ") || "(wrangler named no address)"}`);
  if (plan.secrets.generate.length > 0) console.log(`  uploaded ${plan.secrets.generate.join(", ")} with it (never printed)`);

  const config = readProductionConfig(configPath);
  const settings = hostSettings(origins);
  if (plan.hostsToSet.length > 0) {
    if (!settings)
      throw new Error("wrangler named no address for the Worker: set ALLOWED_HOSTS and PUBLIC_URL in [env.production.vars].");
    if (plan.hostsToSet.includes("ALLOWED_HOSTS")) setProductionVar(configPath, "ALLOWED_HOSTS", settings.allowedHosts);
    if (plan.hostsToSet.includes("PUBLIC_URL")) {
      setProductionVar(configPath, "PUBLIC_URL", settings.publicUrl);
      if (!plan.hostsToSet.includes("ALLOWED_HOSTS")) {
        const hosts = new Set([
          ...(config.vars.ALLOWED_HOSTS ?? "").split(",").map((h) => h.trim()),
          new URL(settings.publicUrl).hostname,
        ]);
        setProductionVar(configPath, "ALLOWED_HOSTS", [...hosts].filter(Boolean).join(","));
      }
    }
    const now = readProductionConfig(configPath).vars;
    console.log(
      `Set in wrangler.toml [env.production.vars] from the deployed host: ALLOWED_HOSTS = "${now.ALLOWED_HOSTS}", PUBLIC_URL = "${now.PUBLIC_URL}". Deploying again with them...`,
    );
    deploy({});
  }

  const publicUrl = readProductionConfig(configPath).vars.PUBLIC_URL as string;
  console.log(`Waiting for ${publicUrl}/healthz...`);
  const health = await waitForHealth(publicUrl, Number(values["health-timeout"]) * 1000);
  for (const line of describeDatabases(health.last.body)) console.log(`  ${line}`);
  if (!health.ok) {
    console.error(
      `/healthz did not answer ok: ${health.last.status ?? health.last.error} ${JSON.stringify(health.last.body ?? {}).slice(0, 1500)}`,
    );
    process.exit(1);
  }
  const backends = health.last.body?.backends as Record<string, string> | undefined;
  console.log(
    `  ok: version ${health.last.body?.version}, ${Object.entries(backends ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  const workflows = readAccount(configPath).workflows;
  for (const { name } of readProductionConfig(configPath).workflows) {
    if (!workflows.some((w) => w.name === name)) throw new Error(`The Workflow ${name} is not in the account after the deploy.`);
  }
  const { workshop, boss, username } = values;
  const lines = await firstSignIn({
    target,
    origin: publicUrl,
    workshop: workshop && boss && username ? { workshop_name: workshop, name: boss, username } : null,
  });
  console.log(`\nWeft is live at ${publicUrl}: the browser at ${publicUrl}/, MCP at ${publicUrl}/mcp.`);
  for (const line of lines) console.log(line);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
