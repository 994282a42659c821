// npm run build: build the browser UI, bundle the production Worker offline (wrangler deploy --dry-run)
// and report its size.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildWeb } from "./build-web.ts";
import { ROOT, requireNode22, wrangler } from "./lib.ts";

requireNode22();
await buildWeb();
const outdir = join(ROOT, "dist", "worker");
wrangler(["deploy", "--dry-run", "--env", "production", "--outdir", outdir], { quiet: true });

const files = readdirSync(outdir).filter((f) => statSync(join(outdir, f)).isFile() && !f.endsWith(".map"));
const raw = files.reduce((sum, f) => sum + statSync(join(outdir, f)).size, 0);
const gzip = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(outdir, f))).length, 0);
// Workers limits on the compressed script: 3 MiB on the Free plan, 10 MiB on Paid.
const FREE = 3 * 1024 * 1024;
const PAID = 10 * 1024 * 1024;
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
console.log(`Production bundle in ${outdir}: ${files.join(", ")}`);
console.log(`  size ${mib(raw)}, gzip ${mib(gzip)}`);
console.log(
  `  ${((gzip / FREE) * 100).toFixed(1)}% of the Free plan limit (3 MiB gzip), ${((gzip / PAID) * 100).toFixed(1)}% of the Paid limit (10 MiB gzip)`,
);
if (gzip > PAID) process.exit(1);
