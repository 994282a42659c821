import type { TestProject } from "vitest/node";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    stateDir: string;
    logFile: string;
  }
}

let server: DevServer | undefined;

/** Starts the README's first command, `npm run dev`, on a free port with its own state folder. */
export async function setup(project: TestProject) {
  server = await startDevServer();
  project.provide("baseUrl", server.baseUrl);
  project.provide("stateDir", server.stateDir);
  project.provide("logFile", server.logFile);
}

/** Stops what setup started, by its process group, and removes its state. */
export async function teardown() {
  await server?.stop();
}
