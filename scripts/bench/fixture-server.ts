// Starts a fixture Worker with `wrangler dev` on a free port, for baselines measured in the same run.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../dev-server.ts";
import { OFFLINE_ENV } from "../lib.ts";

export interface FixtureServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Runs `script` in workerd through wrangler (the same runtime as Weft's dev server). */
export async function startFixtureWorker(script: string, { timeoutMs = 60_000 } = {}): Promise<FixtureServer> {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "weft-fixture-"));
  // A configuration of its own, so that none of Weft's bindings come along; built as Weft is (keep_names).
  const config = join(stateDir, "wrangler.toml");
  writeFileSync(
    config,
    `name = "bench-fixture"\nmain = ${JSON.stringify(resolve(script))}\ncompatibility_date = "2026-11-01"\ncompatibility_flags = ["nodejs_compat"]\nkeep_names = false\n`,
  );
  const child = spawn(
    join("node_modules", ".bin", "wrangler"),
    [
      "dev",
      "--config",
      config,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
    ],
    {
      // Weft's own environment, so the floors run in the runtime configuration Weft runs in.
      env: OFFLINE_ENV,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already stopped.
      }
      await new Promise((resolve) => child.once("exit", resolve));
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(baseUrl, { method: "HEAD" }).then(
      () => true,
      () => false,
    );
    if (ok) return { baseUrl, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`fixture ${script} did not start:\n${output}`);
}
