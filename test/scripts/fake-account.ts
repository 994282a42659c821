// An account for test/scripts/fake-wrangler.mjs, a copy of wrangler.toml to deploy from, and a
// server standing in for the deployed Worker's /healthz and operator API, in a folder of their own.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

export const ROOT = join(import.meta.dirname, "..", "..");
const FAKE = join(import.meta.dirname, "fake-wrangler.mjs");
export const MIGRATIONS = readdirSync(join(ROOT, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort();

export interface FakeState {
  loggedIn: boolean;
  d1: { uuid: string; name: string }[];
  applied: Record<string, string[]>;
  kv: { id: string; title: string }[];
  vectorize: { name: string; config: { dimensions: number; metric: string } }[];
  metadata: Record<string, { propertyName: string; indexType: string }[]>;
  workflows: { name: string; script_name: string }[];
  worker: { secrets: Record<string, string> } | null;
  deployTargets: string[];
  /** The most Workflows the API gives a page, whatever is asked (unset: what is asked). */
  workflowsPerPageCap?: number;
  operators: number;
  workshops: number;
  calls: string[][];
  executed: { binding: string; sql: string }[];
  deploys: { ALLOWED_HOSTS?: string; PUBLIC_URL?: string; secrets: string[] }[];
  migratedBeforeDeploy: Record<string, number>;
  /** A folder where each database is a real SQLite file (`<uuid>.sqlite`), for backups and restores. */
  sqliteDir?: string;
}

export const IDS = { DB: "0a0a0a0a-1111-4222-8333-444444444444", SHARD_1: "0b0b0b0b-1111-4222-8333-444444444444" };
export const KV_ID = "c".repeat(32);

/** An account holding everything wrangler.toml's [env.production] names, current and deployed. */
export function fullAccount(): FakeState {
  return {
    loggedIn: true,
    d1: [
      { uuid: IDS.DB, name: "weft" },
      { uuid: IDS.SHARD_1, name: "weft-shard-1" },
    ],
    applied: { [IDS.DB]: [...MIGRATIONS], [IDS.SHARD_1]: [...MIGRATIONS] },
    kv: [{ id: KV_ID, title: "weft-oauth-kv" }],
    vectorize: [{ name: "weft-chunks", config: { dimensions: 1024, metric: "cosine" } }],
    metadata: { "weft-chunks": [{ propertyName: "kb_id", indexType: "String" }] },
    workflows: [{ name: "weft-ingestion", script_name: "weft" }],
    worker: { secrets: { MCP_SECRETS_KEY: "an-existing-key-of-forty-four-characters-xx=" } },
    deployTargets: [],
    operators: 1,
    workshops: 1,
    calls: [],
    executed: [],
    deploys: [],
    migratedBeforeDeploy: {},
  };
}

/** What a test folder holds: the config to deploy from and the fake's account. */
export interface Folder {
  dir: string;
  config: string;
  state: string;
  read(): FakeState;
  write(state: FakeState): void;
  toml(): string;
  writeToml(text: string): void;
  remove(): void;
}

/**
 * A folder with a copy of wrangler.toml, its production D1 and KV ids those of `fullAccount`
 * (unless `placeholders`), `vars` set in [env.production.vars], and the fake's account `state`.
 */
export function folder(
  state: FakeState,
  { vars = {}, placeholders = false }: { vars?: Record<string, string>; placeholders?: boolean } = {},
): Folder {
  const dir = mkdtempSync(join(tmpdir(), "weft-deploy-test-"));
  const config = join(dir, "wrangler.toml");
  copyFileSync(join(ROOT, "wrangler.toml"), config);
  let toml = readFileSync(config, "utf8");
  const production = toml.indexOf("\n[env.production]\n");
  let tail = toml.slice(production);
  if (!placeholders) {
    tail = tail
      .replace('database_id = "00000000-0000-0000-0000-000000000000"', `database_id = "${IDS.DB}"`)
      .replace('database_id = "00000000-0000-0000-0000-000000000001"', `database_id = "${IDS.SHARD_1}"`)
      .replace(/(binding = "OAUTH_KV"\n)id = "0+"/, `$1id = "${KV_ID}"`);
  }
  for (const [name, value] of Object.entries(vars)) {
    tail = tail.replace(new RegExp(`^${name} = ".*"$`, "m"), `${name} = ${JSON.stringify(value)}`);
  }
  toml = toml.slice(0, production) + tail;
  writeFileSync(config, toml);
  const statePath = join(dir, "account.json");
  writeFileSync(statePath, JSON.stringify(state));
  return {
    dir,
    config,
    state: statePath,
    read: () => JSON.parse(readFileSync(statePath, "utf8")) as FakeState,
    write: (next) => writeFileSync(statePath, JSON.stringify(next)),
    toml: () => readFileSync(config, "utf8"),
    writeToml: (text) => writeFileSync(config, text),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs an npm script's file with the fake wrangler, as `npm run <script> -- args` would; asynchronously,
 * since the stand-in Worker it may call answers from this process.
 */
export function runScript(script: string, args: string[], at: Folder, env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string; output: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", script), ...args], {
      cwd: ROOT,
      env: { ...process.env, WEFT_WRANGLER: FAKE, FAKE_WRANGLER_STATE: at.state, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (status) => resolve({ status, stdout, stderr, output: `${stdout}\n${stderr}` }));
  });
}

/** What the stand-in Worker was asked, and a way to change its answers. */
export interface FakeWorker {
  origin: string;
  requests: { method: string; path: string; authorization?: string; body: string }[];
  health: { status: number; body: Record<string, unknown> };
  /** The answer to POST /api/admin/secrets/reseal with a `cursor`; none unless a test sets one. */
  reseal?: (cursor: string | null) => Record<string, unknown>;
  close(): Promise<void>;
}

/** A server answering /healthz (ok unless changed) and the operator's POST /api/admin/workshops. */
export async function fakeWorker(): Promise<FakeWorker> {
  const worker: Omit<FakeWorker, "origin" | "close"> & { reseal?: FakeWorker["reseal"] } = {
    requests: [],
    health: {
      status: 200,
      body: {
        ok: true,
        status: "ok",
        version: "0.1.0",
        databases: { DB: { ok: true, missing_migrations: [] }, SHARD_1: { ok: true, missing_migrations: [] } },
        backends: { vector_index: "vectorize", embeddings: "workers-ai" },
      },
    },
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const authorization = req.headers.authorization;
      worker.requests.push({ method: req.method ?? "", path: req.url ?? "", ...(authorization ? { authorization } : {}), body });
      res.setHeader("Content-Type", "application/json");
      if (req.url === "/healthz") {
        res.statusCode = worker.health.status;
        res.end(JSON.stringify(worker.health.body));
        return;
      }
      if (
        req.method === "POST" &&
        req.url === "/api/admin/secrets/reseal" &&
        worker.reseal &&
        authorization?.startsWith("Bearer wop_")
      ) {
        res.statusCode = 200;
        res.end(JSON.stringify(worker.reseal((JSON.parse(body) as { cursor: string | null }).cursor)));
        return;
      }
      if (req.method === "POST" && req.url === "/api/admin/workshops" && authorization?.startsWith("Bearer wop_")) {
        const asked = JSON.parse(body) as { workshop_name: string; name: string; username: string };
        res.statusCode = 201;
        res.end(
          JSON.stringify({
            workshop: { id: "t-first", name: asked.workshop_name, shard: "SHARD_1" },
            person: { id: "u-first", name: asked.name, username: asked.username, role: "boss" },
            set_password_url: "https://weft.example.com/set-password#token=first-link",
            expires_at: "2027-01-02T00:00:00.000Z",
          }),
        );
        return;
      }
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { code: "unauthorized", message: "no" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  // The test sets `reseal` on what this returns, which the server reads: the same object.
  return Object.assign(worker, {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as FakeWorker;
}

/** Folders and stand-in Workers for a file's tests, each removed once the test that made it ends. */
export function madeForEachTest() {
  const folders: Folder[] = [];
  const workers: FakeWorker[] = [];
  afterEach(async () => {
    for (const f of folders.splice(0)) f.remove();
    for (const w of workers.splice(0)) await w.close();
  });
  return {
    folder(state: FakeState, options?: Parameters<typeof folder>[1]): Folder {
      const f = folder(state, options);
      folders.push(f);
      return f;
    },
    async worker(): Promise<FakeWorker> {
      const w = await fakeWorker();
      workers.push(w);
      return w;
    },
  };
}

/** A first deploy: only the directory's database exists; no shard, KV namespace, metadata index or Worker yet. */
export function freshAccount(): FakeState {
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

/** The wrangler calls, of those the fake account recorded, that would change the account. */
export const changing = (calls: string[][]) =>
  calls.filter(
    (call) =>
      call.includes("create") ||
      call.includes("create-metadata-index") ||
      call[0] === "deploy" ||
      call.includes("apply") ||
      call.includes("put") ||
      call.includes("--file"),
  );
