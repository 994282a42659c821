// Builds the browser UI (src/web) with Vite into dist/web, the Worker's static assets directory.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { build } from "vite";
import { ROOT } from "./lib.ts";

const SERVED = join(ROOT, "dist", "web");

/**
 * Builds the UI once; `npm run dev` and `npm run build` call it so that `/` always serves the current
 * UI. `npm run web:size` builds elsewhere (`outDir`), with Vite's manifest of which chunk imports
 * which. `served` is the folder a server serves, dist/web unless a test says otherwise.
 */
export async function buildWeb({
  outDir,
  manifest = false,
  served = SERVED,
}: {
  outDir?: string;
  manifest?: boolean;
  served?: string;
} = {}): Promise<void> {
  // Vite builds for whatever NODE_ENV says when it is set, and vitest sets "test": without this the
  // e2e tests' `npm run dev` would serve React's development build, a quarter larger than what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  // A running server may be serving dist/web (another `npm run dev` on other state, as the e2e
  // tests run): Vite would empty it first, and a page loaded meanwhile would find no index.html.
  // So the build goes to a folder beside it and is moved in file by file.
  // On a fresh clone there is no dist/ yet.
  if (!outDir) mkdirSync(dirname(served), { recursive: true });
  const staging = outDir ? undefined : mkdtempSync(join(dirname(served), ".web-build-"));
  try {
    await build({
      configFile: join(ROOT, "vite.config.ts"),
      logLevel: "warn",
      build: { outDir: outDir ?? staging, emptyOutDir: true, manifest },
    });
    if (staging) publish(staging, served);
  } finally {
    if (staging) rmSync(staging, { recursive: true, force: true });
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Replaces `target`'s files with `source`'s, each by a rename (atomic on one file system), the pages
 * last so that they never name an asset not there yet; then removes what the new build lacks.
 */
function publish(source: string, target: string): void {
  const built = filesUnder(source);
  const pagesLast = [...built.filter((f) => !f.endsWith(".html")), ...built.filter((f) => f.endsWith(".html"))];
  for (const file of pagesLast) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    renameSync(join(source, file), join(target, file));
  }
  const keep = new Set(built);
  for (const file of filesUnder(target)) if (!keep.has(file)) rmSync(join(target, file), { force: true });
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}
