// npm run bench: starts `npm run dev` on a free port and prints latency and throughput figures,
// each beside a baseline measured in the same run against the same server.

import { benchBusiness } from "./bench/business.ts";
import { benchChat } from "./bench/chat.ts";
import { benchConsult } from "./bench/consult.ts";
import { crashUnderLoad, printCrashReport } from "./bench/crash.ts";
import { benchFederation } from "./bench/federation.ts";
import { benchIngest } from "./bench/ingest.ts";
import { benchMcp } from "./bench/mcp.ts";
import { benchRoutes } from "./bench/routes.ts";
import { benchSearch } from "./bench/search.ts";
import { benchTenants } from "./bench/tenants.ts";
import { startDevServer } from "./dev-server.ts";

const only = process.argv[2];
// `npm run bench crash [kills] [clients] [seconds]`: kills and restarts a server of its own, so it runs alone.
if (only === "crash") {
  const [kills = 7, clients = 12, seconds = 8] = process.argv.slice(3).map(Number);
  printCrashReport(await crashUnderLoad({ kills, clients, seconds }));
  process.exit(0);
}

// A thousand workshops take minutes to make, on servers of its own: only when asked for, alone.
if (only === "tenants") {
  await benchTenants();
  process.exit(0);
}

const server = await startDevServer();
try {
  console.log(`Benchmarking ${server.baseUrl} (Node ${process.version}, ${new Date().toISOString()})`);
  if (!only || only === "mcp") await benchMcp(server.baseUrl);
  if (!only || only === "consult") await benchConsult(server.baseUrl);
  if (!only || only === "search") await benchSearch(server.baseUrl);
  if (!only || only === "chat") await benchChat(server.baseUrl);
  if (!only || only === "business") await benchBusiness(server.baseUrl, server.stateDir);
  if (!only || only === "federation") await benchFederation(server.baseUrl);
  if (!only || only === "ingest") await benchIngest(server.baseUrl);
  if (!only || only === "routes") await benchRoutes(server.baseUrl, server.pid);
} finally {
  await server.stop();
}
