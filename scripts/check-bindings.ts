// Part of `npm run deps` (and so of `npm test`): only the wiring reads the bindings that hold data.
// dependency-cruiser checks imports, and a binding is not imported but read as a property of `env`,
// so this check reads the sources for it. The bindings are the ones `wrangler types` wrote into
// src/env.d.ts whose type holds or reaches data (D1, KV, Durable Objects, Vectorize, Workers AI, Workflows).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./lib.ts";

/**
 * The wiring, and configuration, which only checks that a configured binding exists; and the local
 * vector index, an object of `LOCAL_VECTOR_INDEX` that reaches the older objects of its own
 * namespace (an older local state's per-workshop ones) to take their rows over: the stand-in's own
 * storage, no domain's.
 */
const ALLOWED = new Set(["src/services.ts", "src/config.ts", "src/search/local-vector-index.ts"]);
const DATA_TYPES = /^\s+(\w+)\??: (D1Database|KVNamespace|VectorizeIndex|Ai|DurableObjectNamespace|Workflow)\b/;

const bindings = new Set(
  readFileSync(join(ROOT, "src/env.d.ts"), "utf8")
    .split("\n")
    .map((line) => line.match(DATA_TYPES)?.[1])
    .filter((name): name is string => name !== undefined),
);
const read = new RegExp(`\\benv\\s*(?:\\?\\.|\\.)\\s*(${[...bindings].join("|")})\\b|\\benv\\s*\\[`, "g");

const problems: string[] = [];
for (const entry of readdirSync(join(ROOT, "src"), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || entry.name === "env.d.ts") continue;
  const path = relative(ROOT, join(entry.parentPath, entry.name));
  if (ALLOWED.has(path)) continue;
  readFileSync(join(ROOT, path), "utf8")
    .split("\n")
    .forEach((line, index) => {
      for (const match of line.matchAll(read)) {
        problems.push(`${path}:${index + 1}: reads ${match[1] ?? "a binding by name"} (only src/services.ts reads bindings)`);
      }
    });
}
if (problems.length > 0) {
  console.error(`Bindings read outside the wiring:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`✔ no binding read outside the wiring (${bindings.size} data bindings checked)`);
