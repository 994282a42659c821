// Starts `npm run dev` (the README's first command) on a free port with its own state folder, for
// the end-to-end tests and the benchmarks. The caller stops it with `stop()`.
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface DevServer {
  baseUrl: string;
  /** The process id of `npm run dev`, the root of the server's process tree (for CPU figures). */
  pid: number;
  /** The server's local state folder (WEFT_STATE_DIR), for scripts that write to its database. */
  stateDir: string;
  /** Everything the server printed, for tests that check what reaches the logs. */
  logFile: string;
  /** Everything the server printed until it was ready (stdout and stderr). */
  startOutput: string;
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL to its process group), as a crash would, leaving its state as it is. */
  kill(): Promise<void>;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once the server has printed its ready banner, i.e. after knowledge has loaded. Given a
 * `stateDir`, it starts on that existing state and leaves it in place when stopped (a restart);
 * otherwise it makes a fresh folder and removes it on `stop()`.
 */
export async function startDevServer({
  timeoutMs = 170_000,
  stateDir: givenStateDir,
  env = {},
}: {
  timeoutMs?: number;
  stateDir?: string;
  /** More environment for `npm run dev` (a test's `WEFT_CHAT_PACE_MS`). */
  env?: Record<string, string>;
} = {}): Promise<DevServer> {
  const port = await freePort();
  const stateDir = givenStateDir ?? mkdtempSync(join(tmpdir(), "weft-dev-"));
  const child: ChildProcess = spawn("npm", ["run", "dev"], {
    env: { ...process.env, ...env, PORT: String(port), WEFT_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const logFile = join(stateDir, "dev-server.log");
  // Output can still arrive after the process exits; once stop() has run, it is dropped.
  let removed = false;
  const record = (chunk: Buffer) => {
    if (!removed) appendFileSync(logFile, chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const end = async (signal: NodeJS.Signals) => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already stopped.
      }
      await new Promise((resolve) => child.once("exit", resolve));
    }
  };
  const stop = async () => {
    await end("SIGTERM");
    removed = true;
    if (!givenStateDir) rmSync(stateDir, { recursive: true, force: true });
  };
  const kill = () => end("SIGKILL");
  let output = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm run dev did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Weft is running")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`npm run dev exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid as number, stateDir, logFile, startOutput: output, stop, kill };
}
