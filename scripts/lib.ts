// Helpers shared by the project's Node scripts (dev, e2e, build, deploy, backup, restore, ...).
import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The wrangler the scripts run: the project's own, unless `WEFT_WRANGLER` names another. */
export const WRANGLER = process.env.WEFT_WRANGLER || join(ROOT, "node_modules", ".bin", "wrangler");
/** The configuration file wrangler and the scripts read, unless a script is given another (`--config`). */
export const WRANGLER_TOML = join(ROOT, "wrangler.toml");

/**
 * Environment for wrangler: no telemetry, no lookup of Cloudflare's `cf` object (no network here),
 * and no local trace store unless asked for (`X_LOCAL_OBSERVABILITY=true`): wrangler dev records
 * every request's spans into the state folder, which grows without bound under a self-hosted Weft,
 * and the recording cost 3.5 ms of a 17 ms authenticated read on the 2-core machine.
 */
export const OFFLINE_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false",
};

/** Fails early with a clear message when the pinned Node.js is not the one running. */
export function requireNode22() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) {
    console.error(
      `Weft needs Node.js 22 or newer (running ${process.version}). Run it through npm (npm run dev, npm test), ` +
        "which uses the Node.js pinned in devDependencies.",
    );
    process.exit(1);
  }
}

/** Runs wrangler to completion, echoing its output; exits the script if it fails. */
export function wrangler(args: string[], { quiet = false } = {}): string {
  const result = spawnSync(WRANGLER, args, { cwd: ROOT, env: OFFLINE_ENV, stdio: quiet ? "pipe" : "inherit", encoding: "utf8" });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    console.error(`wrangler ${args.join(" ")} failed (exit ${result.status}).`);
    process.exit(result.status ?? 1);
  }
  return result.stdout ?? "";
}

/** How a wrangler run ended and what it printed. */
export interface WranglerRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs wrangler to completion without echoing it or exiting on failure, for scripts that read its
 * output and say themselves what a failure means; `input` goes to its standard input (a secret's
 * value, never an argument, which other users of the machine could read).
 */
export function runWrangler(args: string[], { input }: { input?: string } = {}): WranglerRun {
  const result = spawnSync(WRANGLER, args, {
    cwd: ROOT,
    env: OFFLINE_ENV,
    input: input ?? "",
    encoding: "utf8",
    stdio: "pipe",
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/**
 * Starts a long-running process in this script's process group, so that Ctrl-C, or a test killing
 * the group, reaches it too; `stop` ends it when the script ends any other way.
 */
export function start(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, env: OFFLINE_ENV, stdio: "inherit", ...options });
  process.on("exit", () => stop(child));
  return child;
}

/**
 * Runs SQL statements against a D1 database (by binding; the directory `DB` unless said) through a
 * file (wrangler takes no parameters). `target` is `["--local", ...]` or `["--remote", "--env", "production"]`.
 */
export function executeSql(name: string, statements: string[], target: string[], database = "DB"): void {
  const dir = join(ROOT, ".wrangler", "tmp");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${Date.now()}.sql`);
  writeFileSync(file, `${statements.join("\n")}\n`);
  wrangler(["d1", "execute", database, ...target, "--file", file], { quiet: true });
}

/** The rows a query returns from a D1 database (by binding), through wrangler's JSON output. */
export function querySql<T>(sql: string, target: string[], database = "DB"): T[] {
  const out = wrangler(["d1", "execute", database, ...target, "--json", "--command", sql], { quiet: true });
  const [first] = JSON.parse(out) as { results: T[] }[];
  return first?.results ?? [];
}

/**
 * The D1 bindings wrangler.toml declares, the directory (`DB`) first then the shards (`SHARD_n`):
 * at the top level (local) or in `[env.production]`. Every one takes the same migrations.
 */
export function d1Bindings({
  production = false,
  config = WRANGLER_TOML,
}: {
  production?: boolean;
  config?: string;
} = {}): string[] {
  const toml = readFileSync(config, "utf8");
  const header = production ? "[[env.production.d1_databases]]" : "[[d1_databases]]";
  const bindings: string[] = [];
  for (const block of toml.split(/^(?=\[)/m)) {
    if (!block.startsWith(header)) continue;
    const binding = block.match(/^binding\s*=\s*"([A-Z0-9_]+)"/m)?.[1];
    if (binding) bindings.push(binding);
  }
  return bindings;
}

/** Stops a process started by `start`. */
export function stop(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
}

/** Polls `url` until it answers 200 or `timeoutMs` passes. */
export async function waitForOk(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `HTTP ${res.status}: ${await res.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready in ${timeoutMs} ms (${last})`);
}
