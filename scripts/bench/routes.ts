// npm run bench -- routes: CPU time per request of the local workerd processes (the Worker's
// runtime under `npm run dev`) for the routes that decide the Cloudflare plan: sign-in, a knowledge
// search, a piece record prepared and confirmed, a 2 MB upload until its document is ready; each
// beside an MCP `ping` measured the same way in the same run. Then the D1 bytes and chunks that
// 200 documents of about 3,000 Chinese characters add, scaled to 1,000 documents. Local CPU time
// is a proxy for production CPU time: same code, same runtime, a different machine and stand-ins.
import { readdirSync, readFileSync } from "node:fs";
import { callTool, rpc } from "./mcp-client.ts";

const KEY = "dev-boss-key";
const AUTH = { Authorization: `Bearer ${KEY}` };
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  pid: number;
  ppid: number;
  name: string;
  ticks: number;
}

function readStat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name is in parentheses and may hold spaces; the fields after it are space-separated.
    const close = text.lastIndexOf(")");
    const name = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
    return { pid, ppid: Number(fields[1]), name, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The workerd processes under the dev server's process (`npm run dev` → wrangler → workerd). */
function workerdOf(rootPid: number): number[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcessStat => stat !== undefined);
  const tree = new Set([rootPid]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const stat of all) {
      if (!tree.has(stat.pid) && tree.has(stat.ppid)) {
        tree.add(stat.pid);
        grown = true;
      }
    }
  }
  return all.filter((stat) => tree.has(stat.pid) && stat.name === "workerd").map((stat) => stat.pid);
}

/** CPU milliseconds (user + system) the given processes have used so far. */
function cpuMs(pids: number[]): number {
  return (pids.reduce((sum, pid) => sum + (readStat(pid)?.ticks ?? 0), 0) * 1000) / TICKS_PER_SECOND;
}

interface CpuRow {
  name: string;
  requests: number;
  cpuMsPerRequest: number;
}

/** Runs `request` `count` times in sequence (after 3 untimed ones) and returns workerd's CPU ms per request. */
async function cpuPerRequest(
  pids: number[],
  name: string,
  count: number,
  request: (i: number) => Promise<void>,
): Promise<CpuRow> {
  for (let i = 0; i < 3; i++) await request(-1 - i);
  // Let work started by the warm-up (a Workflow step, a write-behind) finish before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = cpuMs(pids);
  for (let i = 0; i < count; i++) await request(i);
  return { name, requests: count, cpuMsPerRequest: (cpuMs(pids) - before) / count };
}

const SENTENCES = [
  "门襟宽度为 3.5 厘米，止口缉 0.1 厘米明线，里襟与门襟长短一致。",
  "领尖长 7 厘米，领角对称，上领时领面要平服，不可有链形。",
  "锁眼 7 个，眼距均匀，扣位与眼位对齐，钉扣每眼四股线。",
  "整烫温度不超过 150 度，每件折叠后装入胶袋，每箱 24 件。",
  "缝纫线用 60 支涤纶线，针距每 3 厘米 13 针，线迹平整。",
  "员工每天下班前登记当天的计件数量，老板每周核对一次工资。",
];

/** A Markdown document of about `chars` Chinese characters in sections, distinct per `seed`. */
function markdownOf(seed: number, chars: number): string {
  const parts: string[] = [`# 工艺单 ${seed}`];
  let length = 0;
  for (let section = 1; length < chars; section++) {
    parts.push(`## 第 ${section} 节 要求（${seed}）`);
    const paragraph = Array.from(
      { length: 5 },
      (_, s) => `${SENTENCES[(seed + section + s) % SENTENCES.length]}编号 ${seed}-${section}-${s}。`,
    ).join("");
    parts.push(paragraph);
    length += paragraph.length;
  }
  return parts.join("\n\n");
}

async function newBase(baseUrl: string, name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/knowledge-bases`, {
    method: "POST",
    headers: { ...AUTH, "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const { id } = (await res.json()) as { id?: string };
  if (!id) throw new Error(`no knowledge base: ${res.status}`);
  return id;
}

/** Uploads a Markdown file and waits until its document is ready; its chunk count. */
async function upload(baseUrl: string, kbId: string, name: string, text: string, pollMs: number): Promise<number> {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "text/markdown" }));
  const res = await fetch(`${baseUrl}/api/knowledge-bases/${kbId}/documents`, { method: "POST", headers: AUTH, body: form });
  const body = (await res.json()) as { status_url?: string; document?: { id: string; status: string; chunk_count?: number } };
  if (res.status >= 400 || !body.document) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
  const url = body.status_url ?? `/api/knowledge-bases/${kbId}/documents/${body.document.id}`;
  let document = body.document;
  while (document.status !== "ready") {
    if (document.status === "failed") throw new Error(`${name} failed`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    document = (await (await fetch(`${baseUrl}${url}`, { headers: AUTH })).json()) as typeof document;
  }
  if (document.chunk_count === undefined) throw new Error(`${name}: a ready document without chunk_count`);
  return document.chunk_count;
}

async function shardBytes(baseUrl: string, shard: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/admin/shards`, { headers: { Authorization: "Bearer dev-operator-key" } });
  const { shards } = (await res.json()) as { shards: { name: string; bytes: number }[] };
  return shards.find((s) => s.name === shard)?.bytes ?? Number.NaN;
}

export async function benchRoutes(baseUrl: string, serverPid: number): Promise<void> {
  const pids = workerdOf(serverPid);
  if (pids.length === 0) throw new Error(`no workerd process under ${serverPid}`);
  const count = Number(process.env.BENCH_ROUTE_REQUESTS ?? 40);
  console.log(`\nCPU time of the local workerd processes (${pids.join(", ")}), ${count} sequential requests a route`);

  const rows: CpuRow[] = [];
  const ping = () => rpc(baseUrl, KEY, "ping").then(() => undefined);
  rows.push(await cpuPerRequest(pids, "MCP ping (baseline)", count, ping));
  rows.push(
    await cpuPerRequest(pids, "sign-in (POST /api/auth/login)", count, async (i) => {
      const res = await fetch(`${baseUrl}/api/auth/login`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Origin: baseUrl,
          // Ignored under wrangler dev (TRUST_CLIENT_IP_HEADER is off) and a successful sign-in
          // clears its failures, so the limiter never trips; a distinct address each, as in production.
          "CF-Connecting-IP": `10.44.${(i + 10) % 250}.${(i + 10) >> 8}`,
        },
        body: JSON.stringify({ username: "boss", password: "boss123" }),
      });
      if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
    }),
  );
  rows.push(
    await cpuPerRequest(pids, "knowledge_search over /mcp", count, async () => {
      const found = await callTool<{ results: unknown[] }>(baseUrl, KEY, "knowledge_search", { query: "梭床多久清理一次" });
      if (!Array.isArray(found.results)) throw new Error(`knowledge_search: ${JSON.stringify(found).slice(0, 300)}`);
    }),
  );
  rows.push(
    await cpuPerRequest(pids, "prepare_piece_record + confirm_action (2 MCP calls)", count, async () => {
      const prepared = await callTool<{ action_id?: string }>(baseUrl, KEY, "prepare_piece_record", {
        employee: "张三",
        process: "上领子",
        quantity: 1,
      });
      if (!prepared.action_id) throw new Error(`prepare_piece_record: ${JSON.stringify(prepared).slice(0, 300)}`);
      const confirmed = await callTool<Record<string, unknown>>(baseUrl, KEY, "confirm_action", {
        action_id: prepared.action_id,
      });
      if (!JSON.stringify(confirmed).includes("confirmed"))
        throw new Error(`confirm_action: ${JSON.stringify(confirmed).slice(0, 300)}`);
    }),
  );

  const kbId = await newBase(baseUrl, "压测：大文件");
  // 2 MB (2,000,000 bytes, under the 2 MiB limit for a Markdown file), a different text each time
  // so that nothing one upload computed is reused by the next.
  const twoMegabytes = (seed: number) =>
    new TextDecoder().decode(new TextEncoder().encode(markdownOf(seed, 900_000)).slice(0, 2_000_000)).replace(/\uFFFD$/, "");
  const bigText = twoMegabytes(1);
  const uploads = Number(process.env.BENCH_ROUTE_UPLOADS ?? 2);
  let bigChunks = 0;
  const started = performance.now();
  // Polled every 2 s, so the status reads add little to the count (each costs about a ping).
  rows.push(
    await cpuPerRequest(pids, "2 MB Markdown upload until ready (Workflow)", uploads, async (i) => {
      if (i < -1) return;
      bigChunks = await upload(baseUrl, kbId, `大文件-${i}.md`, twoMegabytes(1000 * (i + 3)), 2000);
    }),
  );
  const uploadSeconds = (performance.now() - started) / 1000 / (uploads + 1);

  const base = rows[0] as CpuRow;
  console.log("| route | requests | workerd CPU ms / request | vs ping |");
  console.log("|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.requests} | ${row.cpuMsPerRequest.toFixed(1)} | ${(row.cpuMsPerRequest / base.cpuMsPerRequest).toFixed(1)}x |`,
    );
  }
  console.log(
    `The 2 MB file (${new TextEncoder().encode(bigText).length} bytes, ${bigText.length} characters) made ${bigChunks} chunks, ready in ${uploadSeconds.toFixed(0)} s`,
  );

  // Storage per 1,000 documents: 200 Markdown documents of about 3,000 Chinese characters.
  const docs = Number(process.env.BENCH_ROUTE_DOCUMENTS ?? 200);
  const sizeKb = await newBase(baseUrl, "压测：存储");
  const before = await shardBytes(baseUrl, "SHARD_1");
  let chunks = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < docs) {
        const n = next++;
        chunks += await upload(baseUrl, sizeKb, `工艺单-${n}.md`, markdownOf(100 + n, 3000), 200);
      }
    }),
  );
  const grown = (await shardBytes(baseUrl, "SHARD_1")) - before;
  const per1000 = 1000 / docs;
  console.log(
    `\n${docs} documents of ~3,000 Chinese characters on SHARD_1: +${(grown / 1024 / 1024).toFixed(2)} MiB, ${chunks} chunks`,
  );
  console.log(
    `Per 1,000 such documents: D1 ${((grown * per1000) / 1024 / 1024).toFixed(1)} MiB, ${(chunks * per1000).toFixed(0)} chunks = ${((chunks * per1000 * 1024) / 1e6).toFixed(2)} M Vectorize stored dimensions (1,024 a chunk)`,
  );
}
