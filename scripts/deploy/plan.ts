// What `npm run deploy` finds and would do: every binding of [env.production] against the
// account, every required secret against the Worker's, the configuration against the Worker's own
// checks, and each database's pending migrations. Reading only: nothing here changes anything.
import { readConfig } from "../../src/config.ts";
import { Misconfigured } from "../../src/config-problems.ts";
import { type Account, metadataIndexes, pendingMigrations, readAccount, secretNames } from "./account.ts";
import type { ProductionConfig } from "./production-config.ts";

/** The metadata property search filters vectors on (src/search/vectorize-index.ts). */
export const METADATA_PROPERTY = "kb_id";
/** bge-m3's vectors (src/search/workers-ai-embedder.ts). */
const DIMENSIONS = 1024;

/** Something to create in the account, with the binding it is for. */
export type Creation =
  | { kind: "d1"; binding: string; name: string }
  | { kind: "kv"; binding: string; title: string }
  | { kind: "vectorize"; binding: string; name: string }
  | { kind: "metadata"; index: string; property: string };

export interface Plan {
  /** What exists as wrangler.toml says, one line each. */
  present: string[];
  create: Creation[];
  /** Ids found in the account (by name) that wrangler.toml lacks: written before deploying. */
  ids: { kind: "d1" | "kv"; binding: string; id: string; name: string }[];
  /** What stops a deploy, each with what to do. */
  blockers: string[];
  secrets: {
    present: string[];
    /** Missing, and made by the script (a random key). */
    generate: string[];
    /** Missing, and given in the environment of the script, which passes them on. */
    fromEnvironment: string[];
  };
  /** Each database's pending migrations (all of them for a database that does not exist yet). */
  migrations: Record<string, string[]>;
  /** Vars the first deploy fills from the host it is given (empty in wrangler.toml). */
  hostsToSet: ("ALLOWED_HOSTS" | "PUBLIC_URL")[];
  workerExists: boolean;
}

/** Secrets the script can make itself: a random key nobody needs to know. */
const GENERATED = new Set(["MCP_SECRETS_KEY"]);

/** What the account and the Worker hold against what [env.production] needs. */
export function makePlan(configPath: string, config: ProductionConfig, allMigrations: readonly string[]): Plan {
  const account = readAccount(configPath);
  const plan: Plan = {
    present: [],
    create: [],
    ids: [],
    blockers: [],
    secrets: { present: [], generate: [], fromEnvironment: [] },
    migrations: {},
    hostsToSet: [],
    workerExists: false,
  };
  planDatabases(plan, config, account, configPath, allMigrations);
  planNamespaces(plan, config, account);
  planVectorIndexes(plan, config, account, configPath);
  planWorkflows(plan, config, account);
  planSecrets(plan, config, configPath);
  planConfiguration(plan, config);
  return plan;
}

function planDatabases(plan: Plan, config: ProductionConfig, account: Account, path: string, all: readonly string[]) {
  for (const { binding, database_name, database_id } of config.d1) {
    const byId = account.d1.find((d) => d.uuid === database_id);
    const byName = account.d1.find((d) => d.name === database_name);
    if (byId && byId.name !== database_name) {
      plan.blockers.push(
        `D1 ${binding}: wrangler.toml names '${database_name}' but id ${database_id} is the database '${byId.name}'. Correct one of them.`,
      );
      continue;
    }
    const found = byId ?? byName;
    if (!found) {
      plan.create.push({ kind: "d1", binding, name: database_name });
      plan.migrations[binding] = [...all];
      continue;
    }
    if (!byId) plan.ids.push({ kind: "d1", binding, id: found.uuid, name: database_name });
    plan.present.push(`D1 ${binding}: ${database_name} (${found.uuid})`);
    // Wrangler finds a database by the id in wrangler.toml, which is written before migrating.
    plan.migrations[binding] = byId ? pendingMigrations(path, binding) : [...all];
  }
}

function planNamespaces(plan: Plan, config: ProductionConfig, account: Account) {
  for (const { binding, id } of config.kv) {
    const title = `${config.name}-${binding.toLowerCase().replaceAll("_", "-")}`;
    const byId = account.kv.find((k) => k.id === id);
    if (byId) {
      plan.present.push(`KV ${binding}: ${byId.title} (${id})`);
      continue;
    }
    const byTitle = account.kv.find((k) => k.title === title);
    if (byTitle) plan.ids.push({ kind: "kv", binding, id: byTitle.id, name: title });
    else plan.create.push({ kind: "kv", binding, title });
  }
}

function planVectorIndexes(plan: Plan, config: ProductionConfig, account: Account, path: string) {
  for (const { binding, index_name } of config.vectorize) {
    const index = account.vectorize.find((v) => v.name === index_name);
    if (!index) {
      plan.create.push({ kind: "vectorize", binding, name: index_name });
      plan.create.push({ kind: "metadata", index: index_name, property: METADATA_PROPERTY });
      continue;
    }
    const { dimensions, metric } = index.config ?? {};
    if (dimensions !== DIMENSIONS || metric !== "cosine") {
      plan.blockers.push(
        `Vectorize ${binding}: '${index_name}' has ${dimensions} dimensions and metric ${metric}; Weft's embeddings need ${DIMENSIONS} and cosine. Name another index in wrangler.toml.`,
      );
      continue;
    }
    plan.present.push(`Vectorize ${binding}: ${index_name} (${dimensions} dimensions, cosine)`);
    const filtered = metadataIndexes(path, index_name).some((m) => m.propertyName === METADATA_PROPERTY);
    if (filtered) plan.present.push(`Vectorize ${binding}: metadata index ${METADATA_PROPERTY}`);
    else plan.create.push({ kind: "metadata", index: index_name, property: METADATA_PROPERTY });
  }
}

function planWorkflows(plan: Plan, config: ProductionConfig, account: Account) {
  for (const { name, binding } of config.workflows) {
    const found = account.workflows.find((w) => w.name === name);
    if (!found) plan.present.push(`Workflow ${binding}: ${name} (made by the deploy)`);
    else if (found.script_name && found.script_name !== config.name) {
      plan.blockers.push(
        `Workflow ${binding}: '${name}' belongs to the Worker '${found.script_name}' in this account. Name another in wrangler.toml.`,
      );
    } else plan.present.push(`Workflow ${binding}: ${name}`);
  }
}

function planSecrets(plan: Plan, config: ProductionConfig, path: string) {
  const names = secretNames(path);
  plan.workerExists = names !== null;
  const existing = new Set(names ?? []);
  const required = [...config.requiredSecrets];
  if (config.vars.CHAT_MODEL === "openai-compatible" && !required.includes("CHAT_API_KEY")) required.push("CHAT_API_KEY");
  for (const name of required) {
    if (existing.has(name)) plan.secrets.present.push(name);
    else if (process.env[name]) plan.secrets.fromEnvironment.push(name);
    else if (GENERATED.has(name)) plan.secrets.generate.push(name);
    else {
      plan.blockers.push(
        `Secret ${name} is not set: run \`npx wrangler secret put ${name} --env production\`, or give it to this command as ${name}=... in its environment.`,
      );
    }
  }
}

/**
 * The Worker's own checks (src/config.ts) over [env.production.vars], with its bindings and secrets
 * as they will be: what the Worker would answer `misconfigured` to is refused before deploying.
 * An empty ALLOWED_HOSTS or PUBLIC_URL is filled from the deployed host instead.
 */
function planConfiguration(plan: Plan, config: ProductionConfig) {
  for (const name of ["ALLOWED_HOSTS", "PUBLIC_URL"] as const) if (!config.vars[name]?.trim()) plan.hostsToSet.push(name);
  const pending = "weft.pending.invalid";
  const env = {
    ...config.vars,
    ...(plan.hostsToSet.includes("ALLOWED_HOSTS") ? { ALLOWED_HOSTS: pending } : {}),
    ...(plan.hostsToSet.includes("PUBLIC_URL") ? { PUBLIC_URL: `https://${pending}` } : {}),
    ...(plan.hostsToSet.includes("PUBLIC_URL") && !plan.hostsToSet.includes("ALLOWED_HOSTS")
      ? { ALLOWED_HOSTS: `${config.vars.ALLOWED_HOSTS},${pending}` }
      : {}),
    ...Object.fromEntries([...plan.secrets.present, ...plan.secrets.generate].map((name) => [name, "x".repeat(44)])),
    ...Object.fromEntries(plan.secrets.fromEnvironment.map((name) => [name, process.env[name]])),
    AI: config.ai ? {} : undefined,
    VECTORIZE: config.vectorize.length > 0 ? {} : undefined,
  };
  try {
    readConfig(env as unknown as Env);
  } catch (error) {
    if (!(error instanceof Misconfigured)) throw error;
    for (const { name, problem } of error.problems) plan.blockers.push(`${name} ${problem}.`);
  }
}
