import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let dev: ChildProcess | undefined;
let stateDir: string | undefined;

/** Starts the README's first command, `npm run dev`, on a free port with its own state folder. */
export async function setup(project: TestProject) {
  const port = await freePort();
  stateDir = mkdtempSync(join(tmpdir(), "weft-e2e-"));
  dev = spawn("npm", ["run", "dev"], {
    env: { ...process.env, PORT: String(port), WEFT_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run dev did not start in time:\n${output}`)), 170_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Weft is running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    dev!.stdout!.on("data", onData);
    dev!.stderr!.on("data", onData);
    dev!.once("exit", (code) => reject(new Error(`npm run dev exited with ${code}:\n${output}`)));
  });
  project.provide("baseUrl", `http://127.0.0.1:${port}`);
}

/** Stops what setup started, by its process group, and removes its state. */
export async function teardown() {
  if (dev?.pid) {
    try {
      process.kill(-dev.pid, "SIGTERM");
    } catch {
      // Already stopped.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}
