#!/usr/bin/env node
// A stand-in for wrangler in the tests of the operations scripts (deploy, secrets:rotate): it answers
// the commands they run as wrangler 4 does, from an account kept in a JSON file
// (FAKE_WRANGLER_STATE), which it updates (what was created, deployed, set) and in which it records
// every call. No network, no account. Plain JavaScript, so any Node runs it.
import { readdirSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

const statePath = process.env.FAKE_WRANGLER_STATE;
const state = JSON.parse(readFileSync(statePath, "utf8"));
const argv = process.argv.slice(2);
state.calls.push(argv);
const save = () => writeFileSync(statePath, JSON.stringify(state, null, 2));
const flag = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const positionals = argv.filter((arg, i) => !arg.startsWith("-") && !(argv[i - 1] ?? "").startsWith("-"));
const [group, command, subject] = positionals;
// Written synchronously before exiting: a pipe takes process.stdout's writes later, and exiting at
// once cuts a long answer (a table's rows as JSON) short.
const writeAll = (fd, text) => {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(fd, bytes, done);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
    }
  }
};
const fail = (message) => {
  save();
  writeAll(2, `✘ [ERROR] ${message}\n`);
  process.exit(1);
};
const out = (text) => {
  save();
  writeAll(1, `${text}\n`);
  process.exit(0);
};

const toml = readFileSync(flag("-c") ?? "wrangler.toml", "utf8");
const blocks = toml.split(/^(?=\[)/m);
const field = (block, key) => block.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m"))?.[1];
const productionTables = (header) => blocks.filter((b) => b.startsWith(`${header}\n`));
const databaseOf = (binding) => {
  const block = productionTables("[[env.production.d1_databases]]").find((b) => field(b, "binding") === binding);
  return state.d1.find((d) => d.uuid === field(block ?? "", "database_id"));
};
const migrations = readdirSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort();

if (group === "whoami") {
  // wrangler 4 says so and exits 0 (cli.js, `whoami`).
  if (!state.loggedIn) out("You are not authenticated. Please run `wrangler login`.");
  out("You are logged in with an OAuth Token, associated with the email ops@example.com.");
}
if (group === "d1" && command === "list") out(JSON.stringify(state.d1));
if (group === "d1" && command === "create") {
  const uuid = `${String(state.d1.length + 1).padStart(8, "0")}-aaaa-4bbb-8ccc-dddddddddddd`;
  state.d1.push({ uuid, name: subject });
  out(
    `✅ Successfully created DB '${subject}'\nCreated your new D1 database.\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "${subject}"\ndatabase_id = "${uuid}"`,
  );
}
// With `sqliteDir`, each database is a SQLite file there, which migrations and SQL really change.
const sqliteOf = (database) => (state.sqliteDir ? new DatabaseSync(join(state.sqliteDir, `${database.uuid}.sqlite`)) : null);
const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "migrations");
const resultsOf = (db, sql) =>
  sql
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ""))
    .filter(Boolean)
    .map((statement) => ({ results: db.prepare(statement).all(), success: true, meta: {} }));

if (group === "d1" && command === "migrations") {
  const binding = positionals[3];
  const database = databaseOf(binding);
  if (!database) fail(`Couldn't find a D1 DB with the name or binding '${binding}' in your wrangler.toml file.`);
  const sqlite = sqliteOf(database);
  if (sqlite && subject === "apply") {
    sqlite.exec(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    );
    const done = new Set(
      sqlite
        .prepare("SELECT name FROM d1_migrations")
        .all()
        .map((r) => r.name),
    );
    for (const m of migrations.filter((name) => !done.has(name))) {
      sqlite.exec(readFileSync(join(migrationsDir, m), "utf8"));
      sqlite.prepare("INSERT INTO d1_migrations (name) VALUES (?)").run(m);
    }
  }
  state.applied[database.uuid] ??= [];
  const applied = state.applied[database.uuid];
  const pending = migrations.filter((m) => !applied.includes(m));
  if (subject === "list")
    out(
      pending.length === 0
        ? "✅ No migrations to apply!"
        : `Migrations to be applied:\n${pending.map((m) => `│ ${m} │`).join("\n")}`,
    );
  applied.push(...pending);
  state.migratedBeforeDeploy[binding] = state.deploys.length;
  out(pending.length === 0 ? "✅ No migrations to apply!" : pending.map((m) => `│ ${m} │ ✅ │`).join("\n"));
}
if (group === "d1" && command === "execute") {
  const database = databaseOf(subject);
  if (!database) fail(`Couldn't find a D1 DB with the name or binding '${subject}'`);
  const file = flag("--file");
  const sqlite = sqliteOf(database);
  if (sqlite) {
    if (file) {
      sqlite.exec(`BEGIN;\n${readFileSync(file, "utf8")}\nCOMMIT;`);
      out("🚣 Executed commands.");
    }
    out(JSON.stringify(resultsOf(sqlite, flag("--command") ?? "")));
  }
  if (file) {
    const sql = readFileSync(file, "utf8");
    state.executed.push({ binding: subject, sql });
    if (sql.includes("INSERT INTO operator_keys")) state.operators += 1;
    out("🚣 Executed 1 command.");
  }
  const sql = flag("--command") ?? "";
  const results = sql.includes("operator_keys") ? [{ operators: state.operators, workshops: state.workshops }] : [];
  out(JSON.stringify([{ results, success: true, meta: {} }]));
}
if (group === "kv" && command === "namespace" && subject === "list") out(JSON.stringify(state.kv, null, "  "));
if (group === "kv" && command === "namespace" && subject === "create") {
  const title = positionals[3];
  const id = `${state.kv.length + 1}`.padStart(32, "f");
  state.kv.push({ id, title });
  out(`🌀 Creating namespace with title "${title}"\n✨ Success!`);
}
if (group === "vectorize" && command === "list") out(JSON.stringify(state.vectorize, null, 2));
if (group === "vectorize" && command === "create") {
  state.vectorize.push({
    name: subject,
    config: {
      dimensions: Number(flag("--dimensions") ?? argv.find((a) => a.startsWith("--dimensions="))?.split("=")[1]),
      metric: argv.find((a) => a.startsWith("--metric="))?.split("=")[1],
    },
  });
  out(`✅ Successfully created a new Vectorize index: '${subject}'`);
}
if (group === "vectorize" && command === "list-metadata-index") out(JSON.stringify(state.metadata[subject] ?? [], null, 2));
if (group === "vectorize" && command === "create-metadata-index") {
  state.metadata[subject] ??= [];
  state.metadata[subject].push({ propertyName: flag("--propertyName"), indexType: "String" });
  out("📋 Creating metadata index...\n✅ Successfully enqueued metadata index creation request.");
}
if (group === "workflows" && command === "list") {
  // One page of the listing, as the API gives it (`--page`, `--per-page`).
  const perPage = Math.min(Number(flag("--per-page") ?? 20), state.workflowsPerPageCap ?? Number.POSITIVE_INFINITY);
  const page = Number(flag("--page") ?? 1);
  out(JSON.stringify(state.workflows.slice((page - 1) * perPage, page * perPage)));
}
if (group === "secret") {
  if (!state.worker)
    fail(
      'Worker "weft" (env: production) not found.\n\nIf this is a new Worker, run `wrangler deploy` first to create it.\nOtherwise, check that the Worker name is correct and you\'re logged into the right account.',
    );
  if (command === "list") out(JSON.stringify(Object.keys(state.worker.secrets).map((name) => ({ name, type: "secret_text" }))));
  if (command === "put") {
    state.worker.secrets[subject] = readFileSync(0, "utf8").trim();
    out(`✨ Success! Uploaded secret ${subject}`);
  }
  if (command === "delete") {
    delete state.worker.secrets[subject];
    out(`✨ Success! Deleted secret ${subject}`);
  }
}
if (group === "deploy") {
  const fromFile = flag("--secrets-file") ? JSON.parse(readFileSync(flag("--secrets-file"), "utf8")) : {};
  const required = (productionTables("[env.production.secrets]")[0] ?? "").match(/required\s*=\s*\[([^\]]*)\]/)?.[1] ?? "";
  const missing = [...required.matchAll(/"([^"]+)"/g)]
    .map((m) => m[1])
    .filter((name) => !(name in fromFile) && !(name in (state.worker?.secrets ?? {})));
  if (missing.length > 0) fail(`The following required secrets have not been set: ${missing.join(", ")}`);
  const vars = productionTables("[env.production.vars]")[0] ?? "";
  state.worker ??= { secrets: {} };
  Object.assign(state.worker.secrets, fromFile);
  state.deploys.push({
    ALLOWED_HOSTS: field(vars, "ALLOWED_HOSTS"),
    PUBLIC_URL: field(vars, "PUBLIC_URL"),
    secrets: Object.keys(fromFile),
  });
  for (const block of productionTables("[[env.production.workflows]]")) {
    if (!state.workflows.some((w) => w.name === field(block, "name")))
      state.workflows.push({ name: field(block, "name"), script_name: "weft" });
  }
  out(
    `Total Upload: 2400.00 KiB / gzip: 700.00 KiB\nUploaded weft (3.10 sec)\nDeployed weft triggers (0.40 sec)\n${[...state.deployTargets, ...state.workflows.filter((w) => w.script_name === "weft").map((w) => `workflow: ${w.name}`)].map((t) => `  ${t}`).join("\n")}\nCurrent Version ID: 0000`,
  );
}
fail(`the fake wrangler does not know: ${argv.join(" ")}`);
