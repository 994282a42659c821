// npm run bench: starts `npm run dev` on a free port and prints latency and throughput figures,
// each beside a baseline measured in the same run against the same server.

import { benchConsult } from "./bench/consult.ts";
import { startDevServer } from "./dev-server.ts";

const server = await startDevServer();
try {
  console.log(`Benchmarking ${server.baseUrl} (Node ${process.version}, ${new Date().toISOString()})`);
  await benchConsult(server.baseUrl);
} finally {
  await server.stop();
}
