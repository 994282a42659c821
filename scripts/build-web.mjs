// Builds the browser UI (src/web) with Vite into dist/web, the Worker's static assets directory.
import { join } from "node:path";
import { build } from "vite";
import { ROOT } from "./lib.mjs";

/** Builds the UI once; `npm run dev` and `npm run build` call it so that `/` always serves the current UI. */
export async function buildWeb() {
  await build({ configFile: join(ROOT, "vite.config.ts"), logLevel: "warn" });
}
