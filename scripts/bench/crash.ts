// Crash under load (issue 46): `npm run dev` is killed (SIGKILL, its whole process group) while
// clients confirm writes, leave writes pending, chat and upload documents; it starts again on the
// same state, and what each client was told is checked against what was stored. Bounded (kills,
// clients, seconds) and on loopback only. `npm run bench crash` runs it and prints its counts;
// test/e2e/crash.test.ts runs a small one and asserts them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer } from "../dev-server.ts";
import { callTool } from "./mcp-client.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BOSS = "dev-boss-key";
const STAFF = "dev-staff-key";
const PIECES = { employee: "张三", process: "领子", quantity: 1, order: "o-jx-1" };
const QUESTION = "李娟这个月做了多少件";
/** How long a request may take before the client gives up on it (a hang, not an answer). */
const GIVE_UP_MS = 20_000;

export interface CrashOptions {
  kills: number;
  clients: number;
  /** How long the clients run before each kill, at most. */
  seconds: number;
  log?: (line: string) => void;
}

/** What the run counted: what clients were told, and whether the stored state agrees. */
export interface CrashReport {
  kills: number;
  /** Seconds from each kill to the server answering again. */
  restartSeconds: number[];
  confirms: { acknowledged: number; oneRowOneAudit: number; lost: number; doubled: number; halfWritten: number };
  /**
   * Confirms sent but cut by a kill: after the restart, read (its status true if it says
   * `confirmed` exactly when its row was stored before the kill) and confirmed again.
   */
  caught: {
    count: number;
    /** Of them, those whose row was stored before the kill (the rest had not written). */
    writtenBeforeKill: number;
    toldTruly: number;
    toldWrongly: number;
    slowestMs: number;
    confirmedOnce: number;
  };
  pending: { left: number; stillPending: number; confirmedOnceAfter: number };
  reconfirmed: { count: number; addedRows: number };
  chats: { completed: number; oneTurn: number; cut: number; cutOneTurnAfterResend: number; doubled: number };
  uploads: { acknowledged: number; whole: number };
}

interface RoundLog {
  prepared: string[];
  acknowledged: Map<string, string>;
  sent: Set<string>;
  pending: string[];
  chats: { chatId: string; done: boolean }[];
  uploads: string[];
}

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]")
    throw new Error(`crash runs on loopback only, not ${host}`);
}

async function request(baseUrl: string, key: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers },
    signal: AbortSignal.timeout(GIVE_UP_MS),
  });
}

async function prepare(baseUrl: string): Promise<string> {
  const action = await callTool<{ action_id: string }>(baseUrl, BOSS, "prepare_piece_record", PIECES);
  return action.action_id;
}

/** One client's work until `stop`: confirm, leave pending, chat, upload, in turn. */
async function client(baseUrl: string, n: number, round: number, kbId: string, log: RoundLog, stop: () => boolean) {
  for (let i = 0; !stop(); i++) {
    try {
      switch (i % 4) {
        case 0: {
          const id = await prepare(baseUrl);
          log.prepared.push(id);
          log.sent.add(id);
          const res = await request(baseUrl, BOSS, `/api/actions/${id}/confirm`, { method: "POST" });
          const body = (await res.json()) as { status?: string; result?: { piece_record_id?: string } };
          if (res.ok && body.status === "confirmed" && body.result?.piece_record_id) {
            log.acknowledged.set(id, body.result.piece_record_id);
            log.sent.delete(id);
          }
          break;
        }
        case 1:
          log.pending.push(await prepare(baseUrl));
          break;
        case 2: {
          const chatId = `crash-${round}-${n}-${i}-${Date.now()}`;
          const entry = { chatId, done: false };
          log.chats.push(entry);
          const res = await request(baseUrl, STAFF, "/api/chat", {
            method: "POST",
            body: JSON.stringify({
              id: chatId,
              messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: QUESTION }] }],
            }),
          });
          const text = await res.text();
          entry.done = res.ok && text.includes('"type":"finish"');
          break;
        }
        default: {
          const phrase = `断电测试 ${round}-${n}-${i} ${crypto.randomUUID().slice(0, 8)}`;
          const res = await request(baseUrl, BOSS, `/api/knowledge-bases/${kbId}/documents`, {
            method: "POST",
            body: JSON.stringify({
              filename: `crash-${round}-${n}-${i}.md`,
              content: `# ${phrase}\n\n${phrase}：这台机器的针距是四针每厘米。`,
            }),
          });
          if (res.status === 201) log.uploads.push(((await res.json()) as { document: { id: string } }).document.id);
        }
      }
    } catch {
      // The server went away mid-request: what the client was told (nothing) is what counts.
      if (stop()) return;
    }
  }
}

/** Reads rows from the stopped server's local D1, as `wrangler d1 execute --json` gives them. */
function query<T>(stateDir: string, sql: string): T[] {
  const result = spawnSync(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--json", "--command", sql],
    { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`query failed:\n${result.stdout}${result.stderr}`);
  return (JSON.parse(result.stdout) as { results: T[] }[])[0]?.results ?? [];
}

const inList = (ids: readonly string[]) => ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ") || "''";

async function timedJson(baseUrl: string, path: string, init: RequestInit = {}) {
  const started = performance.now();
  const res = await request(baseUrl, BOSS, path, init);
  const body = (await res.json()) as { status?: string; error?: { code: string } };
  return { res, body, ms: performance.now() - started };
}

/** Runs the crash: `kills` times, clients run up to `seconds`, the server is killed and started again. */
export async function crashUnderLoad({ kills, clients, seconds, log = console.log }: CrashOptions): Promise<CrashReport> {
  const stateDir = mkdtempSync(join(tmpdir(), "weft-crash-"));
  const report: CrashReport = {
    kills,
    restartSeconds: [],
    confirms: { acknowledged: 0, oneRowOneAudit: 0, lost: 0, doubled: 0, halfWritten: 0 },
    caught: { count: 0, writtenBeforeKill: 0, toldTruly: 0, toldWrongly: 0, slowestMs: 0, confirmedOnce: 0 },
    pending: { left: 0, stillPending: 0, confirmedOnceAfter: 0 },
    reconfirmed: { count: 0, addedRows: 0 },
    chats: { completed: 0, oneTurn: 0, cut: 0, cutOneTurnAfterResend: 0, doubled: 0 },
    uploads: { acknowledged: 0, whole: 0 },
  };
  const acknowledged = new Map<string, string>();
  const confirmedAfter: string[] = [];
  const pendingConfirmed: string[] = [];
  // What a status read said of each cut confirm right after the restart, and when its server was killed.
  const caughtReads = new Map<string, { status: string | undefined; killedAt: string }>();
  const allChats: string[] = [];
  const cutChats: string[] = [];
  const uploads: string[] = [];
  let server: DevServer = await startDevServer({ stateDir });
  try {
    assertLoopback(server.baseUrl);
    const kb = await request(server.baseUrl, BOSS, "/api/knowledge-bases", {
      method: "POST",
      body: JSON.stringify({ name: `断电测试 ${Date.now()}` }),
    });
    const kbId = ((await kb.json()) as { id: string }).id;
    for (let round = 1; round <= kills; round++) {
      const roundLog: RoundLog = { prepared: [], acknowledged: new Map(), sent: new Set(), pending: [], chats: [], uploads: [] };
      let stopped = false;
      const work = Array.from({ length: clients }, (_, n) => client(server.baseUrl, n, round, kbId, roundLog, () => stopped));
      // Killed somewhere in the second half of the window, mid-request for most clients.
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000 * (0.5 + Math.random() * 0.5)));
      stopped = true;
      const killedAt = performance.now();
      const killedAtIso = new Date().toISOString();
      await server.kill();
      await Promise.all(work);
      server = await startDevServer({ stateDir });
      report.restartSeconds.push(Number(((performance.now() - killedAt) / 1000).toFixed(1)));
      log(`round ${round}: killed, answering again after ${report.restartSeconds.at(-1)} s`);

      for (const [id, record] of roundLog.acknowledged) acknowledged.set(id, record);
      // Confirms cut by the kill: told the truth at once, then confirmed once.
      for (const id of roundLog.sent) {
        report.caught.count++;
        const read = await timedJson(server.baseUrl, `/api/actions/${id}`);
        const confirm = await timedJson(server.baseUrl, `/api/actions/${id}/confirm`, { method: "POST" });
        report.caught.slowestMs = Math.max(report.caught.slowestMs, Math.round(read.ms), Math.round(confirm.ms));
        confirmedAfter.push(id);
        caughtReads.set(id, { status: read.body.status, killedAt: killedAtIso });
        if (confirm.body.status === "confirmed") report.caught.confirmedOnce++;
      }
      for (const id of roundLog.pending) {
        report.pending.left++;
        const read = await timedJson(server.baseUrl, `/api/actions/${id}`);
        if (read.body.status === "pending") report.pending.stillPending++;
        const confirm = await timedJson(server.baseUrl, `/api/actions/${id}/confirm`, { method: "POST" });
        if (confirm.body.status === "confirmed") {
          confirmedAfter.push(id);
          pendingConfirmed.push(id);
        }
      }
      for (const chat of roundLog.chats) {
        allChats.push(chat.chatId);
        if (chat.done) continue;
        cutChats.push(chat.chatId);
        const res = await request(server.baseUrl, STAFF, "/api/chat", {
          method: "POST",
          body: JSON.stringify({
            id: chat.chatId,
            messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: QUESTION }] }],
          }),
        });
        await res.text();
      }
      report.chats.completed += roundLog.chats.filter((c) => c.done).length;
      uploads.push(...roundLog.uploads);
    }
    // Every acknowledged confirm, confirmed again after all the restarts.
    for (const [id, record] of acknowledged) {
      report.reconfirmed.count++;
      const again = await timedJson(server.baseUrl, `/api/actions/${id}/confirm`, { method: "POST" });
      if ((again.body as { result?: { piece_record_id?: string } }).result?.piece_record_id !== record) report.confirms.lost++;
    }
    // Chats read back after their replies were stored (the last turns' under waitUntil).
    await new Promise((resolve) => setTimeout(resolve, 1000));
  } finally {
    await server.stop();
  }

  const counted = (table: string, ids: string[]) =>
    new Map(
      query<{ action_id: string; n: number }>(
        stateDir,
        `SELECT action_id, COUNT(*) AS n FROM ${table} WHERE action_id IN (${inList(ids)}) GROUP BY action_id`,
      ).map((r) => [r.action_id, r.n]),
    );
  const everyWrite = [...acknowledged.keys(), ...confirmedAfter];
  const rows = counted("piece_records", everyWrite);
  const writtenAt = new Map(
    query<{ action_id: string; created_at: string }>(
      stateDir,
      `SELECT action_id, created_at FROM piece_records WHERE action_id IN (${inList([...caughtReads.keys()])})`,
    ).map((r) => [r.action_id, r.created_at]),
  );
  for (const [id, read] of caughtReads) {
    const storedBeforeKill = (writtenAt.get(id) ?? "9") < read.killedAt;
    if (storedBeforeKill) report.caught.writtenBeforeKill++;
    if ((read.status === "confirmed") === storedBeforeKill) report.caught.toldTruly++;
    else report.caught.toldWrongly++;
  }
  const audits = counted("business_audit", everyWrite);
  report.confirms.acknowledged = acknowledged.size;
  for (const id of everyWrite) {
    const [r, a] = [rows.get(id) ?? 0, audits.get(id) ?? 0];
    if (r === 1 && a === 1) {
      if (acknowledged.has(id)) report.confirms.oneRowOneAudit++;
    } else if (r > 1 || a > 1) report.confirms.doubled++;
    else if (r !== a) report.confirms.halfWritten++;
    else if (acknowledged.has(id)) report.confirms.lost++;
  }
  report.pending.confirmedOnceAfter = pendingConfirmed.filter((id) => rows.get(id) === 1 && audits.get(id) === 1).length;
  report.reconfirmed.addedRows = [...acknowledged.keys()].reduce((sum, id) => sum + Math.max(0, (rows.get(id) ?? 0) - 1), 0);
  const turns = new Map(
    query<{ chat_id: string; roles: string }>(
      stateDir,
      `SELECT chat_id, group_concat(role, ',') AS roles FROM (SELECT chat_id, role FROM chat_messages
         WHERE chat_id IN (${inList(allChats)}) ORDER BY chat_id, seq) GROUP BY chat_id`,
    ).map((r) => [r.chat_id, r.roles]),
  );
  for (const chatId of allChats) {
    const roles = turns.get(chatId) ?? "";
    const one = roles === "user,assistant";
    if (cutChats.includes(chatId)) {
      report.chats.cut++;
      if (one) report.chats.cutOneTurnAfterResend++;
    } else if (one) report.chats.oneTurn++;
    if (roles.split(",").length > 2) report.chats.doubled++;
  }
  report.uploads.acknowledged = uploads.length;
  report.uploads.whole =
    query<{ n: number }>(
      stateDir,
      `SELECT COUNT(*) AS n FROM documents d WHERE d.id IN (${inList(uploads)}) AND d.status = 'ready'
        AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id)`,
    )[0]?.n ?? 0;
  rmSync(stateDir, { recursive: true, force: true });
  return report;
}

/** The report as the bench prints it. */
export function printCrashReport(report: CrashReport): void {
  const r = report;
  console.log(`\nCrash under load: ${r.kills} SIGKILLs of npm run dev, answering again after ${r.restartSeconds.join(", ")} s`);
  console.log(
    `  confirms acknowledged: ${r.confirms.acknowledged}; each one row and one audit entry: ${r.confirms.oneRowOneAudit}; lost ${r.confirms.lost}, doubled ${r.confirms.doubled}, half-written ${r.confirms.halfWritten}`,
  );
  console.log(
    `  confirms cut by a kill: ${r.caught.count} (${r.caught.writtenBeforeKill} had written); status told truly at once: ${r.caught.toldTruly} (wrongly ${r.caught.toldWrongly}); confirmed once after the restart: ${r.caught.confirmedOnce}; slowest answer after the restart ${r.caught.slowestMs} ms`,
  );
  console.log(
    `  writes left pending: ${r.pending.left}; still pending after the restart: ${r.pending.stillPending}; confirmed once then: ${r.pending.confirmedOnceAfter}`,
  );
  console.log(
    `  acknowledged confirms confirmed again after the restarts: ${r.reconfirmed.count}; rows added: ${r.reconfirmed.addedRows}`,
  );
  console.log(
    `  chats completed: ${r.chats.completed}, one question and one reply: ${r.chats.oneTurn}; cut: ${r.chats.cut}, one turn after sending again: ${r.chats.cutOneTurnAfterResend}; doubled: ${r.chats.doubled}`,
  );
  console.log(`  uploads acknowledged: ${r.uploads.acknowledged}, whole (ready, with their chunks): ${r.uploads.whole}`);
}
