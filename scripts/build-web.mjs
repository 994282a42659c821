// Builds the browser UI (src/web) with Vite into dist/web, the Worker's static assets directory.
import { join } from "node:path";
import { build } from "vite";
import { ROOT } from "./lib.mjs";

/**
 * Builds the UI once; `npm run dev` and `npm run build` call it so that `/` always serves the current
 * UI. `npm run web:size` builds elsewhere, with Vite's manifest of which chunk imports which.
 */
export async function buildWeb({ outDir, manifest = false } = {}) {
  // Vite builds for whatever NODE_ENV says when it is set, and vitest sets "test": without this the
  // e2e tests' `npm run dev` would serve React's development build, a quarter larger than what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: join(ROOT, "vite.config.ts"),
      logLevel: "warn",
      ...(outDir ? { build: { outDir, emptyOutDir: true, manifest } } : {}),
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
