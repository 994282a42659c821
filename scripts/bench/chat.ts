// POST /api/chat with the offline model on `npm run dev`: time to first byte and to the stream's
// `finish` chunk, at 1 and 16 concurrent chats, beside GET /healthz measured in the same run; and
// what the stream log of replies (resume and stop, #42) costs: the same turns, interleaved, on a
// second `npm run dev` started with no log (CHAT_STREAM_LOG=none, Weft before the log).
import { startDevServer } from "../dev-server.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-boss-key";
// A how-to question (retrieval and an extractive answer), a consultation and a business query
// (each a tool call and a second model step), in turn.
const MESSAGES = ["怎么新建订单？", "衣服起皱怎么办", "生产中的订单有哪些"];

interface ChatFigures {
  clients: number;
  chats: number;
  ttfbP50: number;
  ttfbP95: number;
  finishP50: number;
  finishP95: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

// One chat turn in a fresh chat; returns milliseconds to the first body byte and to `finish`.
async function chatTurn(baseUrl: string, text: string): Promise<[number, number]> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      id: `bench-${crypto.randomUUID()}`,
      message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
    }),
  });
  if (!res.ok || !res.body) throw new Error(`/api/chat: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let firstByte = 0;
  let finished = 0;
  let seen = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByte) firstByte = performance.now() - started;
    seen += decoder.decode(value, { stream: true });
    if (!finished && seen.includes('"type":"finish"')) finished = performance.now() - started;
    seen = seen.slice(-64);
  }
  if (!finished) throw new Error("/api/chat: the stream ended without a finish chunk");
  return [firstByte, finished];
}

async function measureChat(baseUrl: string, clients: number, perClient: number): Promise<ChatFigures> {
  for (let i = 0; i < 4; i++) await chatTurn(baseUrl, MESSAGES[i % MESSAGES.length] as string);
  const ttfb: number[] = [];
  const finish: number[] = [];
  const deadline = performance.now() + 90_000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient && performance.now() < deadline; i++) {
        const [first, done] = await chatTurn(baseUrl, MESSAGES[(client + i) % MESSAGES.length] as string);
        ttfb.push(first);
        finish.push(done);
      }
    }),
  );
  ttfb.sort((a, b) => a - b);
  finish.sort((a, b) => a - b);
  return {
    clients,
    chats: ttfb.length,
    ttfbP50: percentile(ttfb, 50),
    ttfbP95: percentile(ttfb, 95),
    finishP50: percentile(finish, 50),
    finishP95: percentile(finish, 95),
  };
}

/**
 * The same turns on the server with the log (`logged`) and on one without (`plain`), one after the
 * other in each client's loop, so both meet the same load on the same machine.
 */
async function measureLogCost(logged: string, plain: string, clients: number, perClient: number) {
  const servers = { logged, plain } as const;
  for (const baseUrl of Object.values(servers)) {
    for (let i = 0; i < 4; i++) await chatTurn(baseUrl, MESSAGES[i % MESSAGES.length] as string);
  }
  const times = {
    logged: { ttfb: [] as number[], finish: [] as number[] },
    plain: { ttfb: [] as number[], finish: [] as number[] },
  };
  const deadline = performance.now() + 120_000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient && performance.now() < deadline; i++) {
        const text = MESSAGES[(client + i) % MESSAGES.length] as string;
        // Which goes first alternates, so neither always meets the other's tail.
        const order = (client + i) % 2 === 0 ? (["logged", "plain"] as const) : (["plain", "logged"] as const);
        for (const which of order) {
          const [first, done] = await chatTurn(servers[which], text);
          times[which].ttfb.push(first);
          times[which].finish.push(done);
        }
      }
    }),
  );
  const row = (which: keyof typeof servers) => {
    const ttfb = times[which].ttfb.sort((a, b) => a - b);
    const finish = times[which].finish.sort((a, b) => a - b);
    return {
      turns: ttfb.length,
      ttfb: percentile(ttfb, 50),
      ttfbP95: percentile(ttfb, 95),
      finish: percentile(finish, 50),
      finishP95: percentile(finish, 95),
    };
  };
  return { clients, logged: row("logged"), plain: row("plain") };
}

/** The stream log's cost, against a server without it started for the comparison. */
async function benchLogCost(baseUrl: string): Promise<void> {
  const plain = await startDevServer({ env: { WEFT_CHAT_STREAM_LOG: "none" } });
  try {
    const rows = [];
    for (const clients of [1, 8]) rows.push(await measureLogCost(baseUrl, plain.baseUrl, clients, clients === 1 ? 30 : 6));
    console.log(
      "\nChat stream log (resume and stop): the same turns with the log and without it (CHAT_STREAM_LOG=none), interleaved",
    );
    console.log(
      "| concurrent chats | turns each | first byte p50 ms: log / none | ratio | finish p50 ms: log / none | ratio | finish p95 ms: log / none |",
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(
        `| ${r.clients} | ${r.logged.turns} | ${r.logged.ttfb.toFixed(1)} / ${r.plain.ttfb.toFixed(1)} | ${(r.logged.ttfb / r.plain.ttfb).toFixed(2)}x | ${r.logged.finish.toFixed(1)} / ${r.plain.finish.toFixed(1)} | ${(r.logged.finish / r.plain.finish).toFixed(2)}x | ${r.logged.finishP95.toFixed(1)} / ${r.plain.finishP95.toFixed(1)} |`,
      );
    }
  } finally {
    await plain.stop();
  }
}

export async function benchChat(baseUrl: string): Promise<void> {
  const health: Figures[] = [];
  const chats: ChatFigures[] = [];
  for (const clients of [1, 16]) {
    health.push(
      await measure("GET /healthz (baseline)", { clients, perClient: clients === 1 ? 200 : 40 }, async () => async () => {
        const res = await fetch(`${baseUrl}/healthz`);
        if (!res.ok) throw new Error(`/healthz: ${res.status}`);
        await res.arrayBuffer();
      }),
    );
    chats.push(await measureChat(baseUrl, clients, clients === 1 ? 40 : 8));
  }
  printTable("Chat baseline: GET /healthz on wrangler dev (local, one machine, 2 cores)", health, () => undefined);
  console.log("\nChat: POST /api/chat with the offline model on wrangler dev, a fresh chat per turn");
  console.log("| concurrent chats | turns | first byte p50 ms | p95 ms | finish p50 ms | p95 ms | finish p50 vs /healthz p50 |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of chats) {
    const base = health.find((h) => h.clients === row.clients);
    console.log(
      `| ${row.clients} | ${row.chats} | ${row.ttfbP50.toFixed(1)} | ${row.ttfbP95.toFixed(1)} | ${row.finishP50.toFixed(1)} | ${row.finishP95.toFixed(1)} | ${base ? `${(row.finishP50 / base.p50).toFixed(1)}x` : "-"} |`,
    );
  }
  await benchLogCost(baseUrl);
}
