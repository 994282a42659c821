// Loads the demo workshops, people and development keys into the local D1. Never in production.
import { DEMO, demoSeedStatements } from "./demo-data.ts";
import { executeSql } from "./lib.ts";

/** Writes the demo rows into the local database; refuses anything that could reach production. */
export async function seedDemoData({ persistTo }: { persistTo?: string | undefined } = {}) {
  const target = process.env.CLOUDFLARE_ENV ?? process.env.WRANGLER_ENV ?? "";
  if (process.env.ENVIRONMENT === "production" || target === "production" || process.argv.includes("--remote")) {
    console.error("Refusing to seed demo data: ENVIRONMENT is production. Demo keys must never exist there.");
    process.exit(1);
  }
  executeSql("seed", await demoSeedStatements(), ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])]);
  return DEMO;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await seedDemoData({ persistTo: process.env.WEFT_STATE_DIR });
  console.log("Demo data loaded.");
}
