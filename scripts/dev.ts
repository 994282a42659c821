// npm run dev: build the browser UI, apply migrations, load demo data, start wrangler dev, load knowledge, serve.

import { buildWeb } from "./build-web.ts";
import { ensureDevSecrets } from "./dev-vars.ts";
import { shipTrees } from "./knowledge-ship.ts";
import { d1Bindings, requireNode22, start, stop, WRANGLER, waitForOk, wrangler } from "./lib.ts";
import { describeKnowledgeBases, loadDocuments, loadFaqs } from "./load-knowledge.ts";
import { seedDemoData } from "./seed.ts";

requireNode22();
const port = process.env.PORT ?? "8787";
const persistTo = process.env.WEFT_STATE_DIR;
const persistArgs = persistTo ? ["--persist-to", persistTo] : [];
const baseUrl = `http://127.0.0.1:${port}`;

console.log("Building the browser UI...");
await buildWeb();
if (ensureDevSecrets()) console.log("Wrote a local MCP_SECRETS_KEY into .dev.vars.");
const databases = d1Bindings();
console.log(`Applying D1 migrations (local) to the directory and the shards: ${databases.join(", ")}...`);
for (const database of databases) wrangler(["d1", "migrations", "apply", database, "--local", ...persistArgs], { quiet: true });
const demo = await seedDemoData({ persistTo });
console.log("Checking and loading the shipped decision trees...");
const trees = await shipTrees({ persistTo });

// Quiet by default: warnings and errors only, from Weft and from wrangler (whose own per-request
// lines are info). `LOG_LEVEL=info npm run dev` shows a line per request from both.
const requestedLevel = process.env.LOG_LEVEL ?? "";
const logLevel = ["debug", "info", "warn", "error"].includes(requestedLevel) ? requestedLevel : undefined;
const server = start(WRANGLER, [
  "dev",
  "--port",
  port,
  "--ip",
  "127.0.0.1",
  "--show-interactive-dev-session=false",
  ...persistArgs,
  "--log-level",
  logLevel ?? "warn",
  ...(logLevel ? ["--var", `LOG_LEVEL:${logLevel}`] : []),
  // Raw search scores, for fitting the calibration (npm run eval -- --raw); never for users.
  ...(process.env.WEFT_RAW_SCORES === "1" ? ["--var", "SCORE_CALIBRATION:off"] : []),
  // A slow model stand-in, for the browser tests that reload, drop or stop a reply mid-way; never for users.
  // No stream log of replies: the baseline `npm run bench -- chat` measures the log's cost against.
  ...(process.env.WEFT_CHAT_STREAM_LOG === "none" ? ["--var", "CHAT_STREAM_LOG:none"] : []),
  ...(/^\d+$/.test(process.env.WEFT_CHAT_PACE_MS ?? "") ? ["--var", `CHAT_MODEL_PACE_MS:${process.env.WEFT_CHAT_PACE_MS}`] : []),
]);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stop(server);
    process.exit(0);
  });
}
server.on("exit", (code) => process.exit(code ?? 0));

await waitForOk(`${baseUrl}/healthz`, 120_000);
const bossKey = "dev-boss-key";
const loaded = [...(await loadDocuments({ baseUrl, bossKey })), ...(await loadFaqs({ baseUrl, bossKey }))];
const knowledgeBases = await describeKnowledgeBases({ baseUrl, bossKey, loaded });
console.log(`
Weft is running at http://localhost:${port}
  Web chat:      http://localhost:${port}/   (sign in as boss / boss123)
  MCP endpoint:  http://localhost:${port}/mcp   (Authorization: Bearer <key>)
  Health:        http://localhost:${port}/healthz
  Decision trees (shipped): ${trees.join(", ") || "none"}
  Knowledge bases (the boss's workshop): ${knowledgeBases.join(", ") || "none"}
  Sign up a workshop: http://localhost:${port}/sign-up
  Development keys:
${demo.users.map((u) => `    ${u.key.padEnd(20)} ${u.role.padEnd(6)} ${u.name} (${demo.tenants.find((t) => t.id === u.tenantId)?.name})`).join("\n")}
  Operator key (the deployment's, outside every workshop; /api/admin):
${demo.operators.map((o) => `    ${o.key}`).join("\n")}
`);
