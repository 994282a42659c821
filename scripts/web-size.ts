// npm run web:size (part of npm test): builds the browser UI into a temporary folder and checks what
// each screen fetches on first load, in gzip bytes, against the budgets in scripts/web-budget.ts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildWeb } from "./build-web.ts";
import { requireNode22 } from "./lib.ts";
import { BUDGET_BYTES, SCREENS, type Screen } from "./web-budget.ts";

/** An entry of Vite's build manifest: a module's chunk, its stylesheets and the chunks it imports statically. */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

requireNode22();
const outDir = mkdtempSync(join(tmpdir(), "weft-web-size-"));
try {
  await buildWeb({ outDir, manifest: true });
  const manifest: Record<string, ManifestChunk> = JSON.parse(readFileSync(join(outDir, ".vite", "manifest.json"), "utf8"));

  /** The files a module needs before it runs: its chunk and stylesheets, and those of what it imports statically. */
  const filesOf = (key: string, files: Set<string>): void => {
    const chunk = manifest[key];
    if (!chunk) {
      throw new Error(
        `${key} is not a chunk of its own: something imports it statically (so it loads with the first screen), or it was renamed (update SCREENS in scripts/web-budget.ts).`,
      );
    }
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) filesOf(imported, files);
  };
  const gzipOf = (file: string) => gzipSync(readFileSync(join(outDir, file))).length;
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

  let over = false;
  for (const screen of Object.keys(SCREENS) as Screen[]) {
    const modules: readonly string[] = SCREENS[screen];
    const files = new Set<string>();
    for (const module of modules) filesOf(module, files);
    const bytes = [...files].reduce((sum, file) => sum + gzipOf(file), 0);
    const budget = BUDGET_BYTES[screen];
    over ||= bytes > budget;
    console.log(
      `${screen.padEnd(16)} ${kb(bytes).padStart(9)} gzip  (budget ${kb(budget)}, ${bytes} B)${bytes > budget ? "  OVER BUDGET" : ""}`,
    );
  }
  if (over) {
    console.error(
      "The browser UI's first load is over budget: make it smaller, or raise the budget in scripts/web-budget.ts and say why.",
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
