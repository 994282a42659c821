// npm run workshop:move -- --workshop ID --to SHARD [--abort] [--remote]
// Moves a workshop's data to another shard through the operator's API, one bounded step after
// another, waiting where the move must wait (docs/deployment.md, "Workshops on shards"). Locally it
// talks to `npm run dev` (http://localhost:$PORT, the demo operator key); with --remote to the
// deployment at WEFT_URL with the operator key in WEFT_OPERATOR_KEY. Running it again after an
// interruption goes on where the move stopped; --abort rolls back a move that has not switched.
import { parseArgs } from "node:util";
import { requireNode22 } from "./lib.ts";

requireNode22();
const { values } = parseArgs({
  options: {
    workshop: { type: "string" },
    to: { type: "string" },
    abort: { type: "boolean", default: false },
    remote: { type: "boolean", default: false },
  },
});
if (!values.workshop || (!values.to && !values.abort)) {
  console.error("Usage: npm run workshop:move -- --workshop ID --to SHARD [--remote]   (or --workshop ID --abort)");
  process.exit(2);
}
const base = values.remote ? process.env.WEFT_URL : `http://localhost:${process.env.PORT ?? "8787"}`;
const key = values.remote ? process.env.WEFT_OPERATOR_KEY : (process.env.WEFT_OPERATOR_KEY ?? "dev-operator-key");
if (!base || !key) {
  console.error("With --remote, set WEFT_URL (the deployment's address) and WEFT_OPERATOR_KEY (npm run operator:create).");
  process.exit(2);
}

interface Report {
  state: string;
  next: "continue" | "wait" | "done";
  from: string;
  to: string;
  retry_after_seconds?: number;
  table?: { name: string; rows_done: number };
  checked?: Record<string, number>;
}

async function post(path: string, body?: unknown): Promise<Report> {
  const res = await fetch(`${base}/api/admin/workshops/${encodeURIComponent(values.workshop as string)}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as Report & { error?: { message: string } };
  if (!res.ok) {
    console.error(`The move stopped: ${answer.error?.message ?? res.status}`);
    process.exit(1);
  }
  return answer;
}

if (values.abort) {
  const report = await post("/move/abort");
  console.log(`Rolled back: ${values.workshop} stays on ${report.from}; the copy on ${report.to} is deleted.`);
  process.exit(0);
}
for (;;) {
  const report = await post("/move", { to: values.to });
  const where = report.table ? ` (${report.table.name}: ${report.table.rows_done} rows)` : "";
  console.log(`${new Date().toISOString()} ${report.state}${where}`);
  if (report.checked) {
    console.log(
      `Checked on both shards: ${Object.entries(report.checked)
        .map(([t, n]) => `${t} ${n}`)
        .join(", ")}`,
    );
  }
  if (report.next === "done") {
    console.log(`${values.workshop} now lives on ${report.to}.`);
    break;
  }
  if (report.next === "wait") {
    const seconds = report.retry_after_seconds ?? 5;
    console.log(
      `Waiting ${seconds} s (${report.state === "fenced" ? "for writes begun before the fence" : "for reads routed before the switch"})...`,
    );
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
