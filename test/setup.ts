import { applyD1Migrations, env } from "cloudflare:test";
import { demoSeedStatements } from "../scripts/demo-data.ts";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await env.DB.batch((await demoSeedStatements()).map((sql) => env.DB.prepare(sql)));
