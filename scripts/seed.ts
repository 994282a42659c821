// Loads the demo workshops, people and development keys into the local D1. Never in production.
import { DEMO, demoSeedStatements } from "./demo-data.ts";
import { executeSql, querySql } from "./lib.ts";

/**
 * Writes the demo rows into the local databases, the directory's first and then each workshop's on
 * the shard the directory places it on (a state from before shards keeps its workshops on the
 * primary database); refuses anything that could reach production.
 */
export async function seedDemoData({ persistTo }: { persistTo?: string | undefined } = {}) {
  const target = process.env.CLOUDFLARE_ENV ?? process.env.WRANGLER_ENV ?? "";
  if (process.env.ENVIRONMENT === "production" || target === "production" || process.argv.includes("--remote")) {
    console.error("Refusing to seed demo data: ENVIRONMENT is production. Demo keys must never exist there.");
    process.exit(1);
  }
  const local = ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  const seed = await demoSeedStatements();
  executeSql("seed", seed.directory, local);
  const placed = querySql<{ id: string; shard: string }>("SELECT id, shard FROM tenants", local);
  for (const [workshop, statements] of Object.entries(seed.workshops)) {
    const shard = placed.find((t) => t.id === workshop)?.shard ?? "DB";
    executeSql(`seed-${workshop}`, statements, local, shard);
  }
  return DEMO;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await seedDemoData({ persistTo: process.env.WEFT_STATE_DIR });
  console.log("Demo data loaded.");
}
