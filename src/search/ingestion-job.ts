import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { chunkIds, commitChunks, embedChunks, type PreparedChunks, prepareChunks, recordFailure } from "./chunk-writes.ts";
import { type DocumentRow, getDocument } from "./documents.ts";
import { type FileProblem, problemOf } from "./file-problem.ts";
import type { BinaryKind } from "./file-types.ts";
import type { Ingestion, JobParams, JobSteps } from "./ingestion.ts";
import { parseContent } from "./parse-file.ts";
import type { ParsedDocument, ProgressReport } from "./parsed-document.ts";
import type { SearchService } from "./service.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

// D1 keeps at most 2 MB in a row: a file is kept in parts of 1 MiB while its job runs.
const PART_BYTES = 1024 * 1024;
// Chunks embedded per step: one Workers AI call's worth, and a step short enough to retry whole.
const BATCH = 64;

/**
 * Hands an upload to the ingestion job: the job's row (status `queued`) and the file's bytes in
 * one D1 batch, replacing any older job of the document (whose instance then finds its job gone
 * and stops), then the Workflow instance that reads them. If the instance cannot be created, the
 * row and bytes are taken back and the upload fails (503): no job is left that nothing runs. The
 * same bytes uploaded again while their job runs start nothing new.
 */
export async function enqueueJob({
  db,
  ingestion,
  job,
}: {
  db: D1Database;
  ingestion: Ingestion;
  job: {
    tenantId: string;
    kbId: string;
    documentId: string;
    base: number;
    kind: BinaryKind;
    title: string | undefined;
    contentHash: string;
    bytes: Uint8Array;
  };
}): Promise<DocumentRow> {
  const running = await db
    .prepare("SELECT job_id FROM document_jobs WHERE document_id = ?1 AND content_hash = ?2")
    .bind(job.documentId, job.contentHash)
    .first();
  if (!running) {
    const jobId = crypto.randomUUID();
    const parts: D1PreparedStatement[] = [];
    for (let at = 0, part = 0; at < job.bytes.length || part === 0; at += PART_BYTES, part++) {
      parts.push(
        db
          .prepare("INSERT INTO document_job_parts (job_id, kind, part, data) VALUES (?1, 'file', ?2, ?3)")
          .bind(jobId, part, job.bytes.subarray(at, at + PART_BYTES)),
      );
    }
    await db.batch([
      db.prepare("DELETE FROM document_jobs WHERE document_id = ?1").bind(job.documentId),
      db
        .prepare(
          `INSERT INTO document_jobs (document_id, tenant_id, job_id, base_generation, kind, title, content_hash, size_bytes, status)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'queued')`,
        )
        .bind(job.documentId, job.tenantId, jobId, job.base, job.kind, job.title ?? null, job.contentHash, job.bytes.length),
      ...parts,
    ]);
    try {
      await ingestion.start({ jobId, documentId: job.documentId, tenantId: job.tenantId });
    } catch (error) {
      await db.prepare("DELETE FROM document_jobs WHERE job_id = ?1").bind(jobId).run();
      throw new AppError("unavailable", "The ingestion job could not be started; try the upload again.", {
        cause: error,
        retryable: true,
      });
    }
  }
  return getDocument({ db, tenantId: job.tenantId, kbId: job.kbId, documentId: job.documentId });
}

/**
 * A job that has not moved for this long is taken to have lost its instance (a local `wrangler dev`
 * stopped mid-job does not resume its Workflows; in production an instance can end without its
 * last step). Every step writes progress, and parsing at least once a second, so two minutes of
 * silence means nothing runs it; if something still did, it finds its job replaced and stops.
 */
export const STALL_MS = 120_000;

/**
 * Starts again, under a new job id and a new instance, each job of the knowledge base that has
 * stalled (`STALL_MS`); called when someone reads where its documents stand. The job keeps its
 * file; vectors the old instance wrote are removed. An old instance that wakes finds another job
 * id and stops without writing, so the document is still written once.
 */
export async function reviveStalledJobs({
  db,
  backends,
  tenantId,
  ingestion,
  kbId,
}: SearchService & { kbId: string }): Promise<void> {
  const { results } = await db
    .prepare(
      `SELECT j.job_id AS jobId, j.document_id AS documentId, j.base_generation AS base, j.unit, j.total
         FROM document_jobs j JOIN documents d ON d.id = j.document_id
        WHERE j.tenant_id = ?1 AND d.kb_id = ?2 AND j.updated_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?3)`,
    )
    .bind(tenantId, kbId, `-${STALL_MS / 1000} seconds`)
    .all<{ jobId: string; documentId: string; base: number; unit: string | null; total: number | null }>();
  for (const stalled of results) {
    const jobId = crypto.randomUUID();
    let moved: unknown;
    try {
      moved = await db
        .prepare(
          `UPDATE document_jobs SET job_id = ?2, status = 'queued', unit = NULL, done = 0, total = NULL,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE job_id = ?1 RETURNING job_id`,
        )
        .bind(stalled.jobId, jobId)
        .first();
    } catch (error) {
      // A workshop being moved takes no writes: the read goes on, and a read after the move revives the job.
      if (error instanceof AppError && error.code === "workshop_moving") return;
      throw error;
    }
    if (!moved) continue;
    log("warn", "ingestion_job_revived", { document_id: stalled.documentId, stalled_job: stalled.jobId, job: jobId });
    if (stalled.unit === "chunks" && stalled.total) {
      const ids = chunkIds(stalled.documentId, stalled.base + 1, stalled.jobId.slice(0, 8), stalled.total);
      await removeVectorsQuietly(backends.vectorIndex, tenantId, ids, "stalled_ingestion");
    }
    await ingestion.start({ jobId, documentId: stalled.documentId, tenantId });
  }
}

/** A job as its steps read it. */
interface Job {
  jobId: string;
  documentId: string;
  kbId: string;
  filename: string;
  source: string;
  base: number;
  kind: BinaryKind;
  title: string | null;
  contentHash: string;
  size: number;
}

/** How a job ended, its Workflow instance's output. */
export type JobOutcome = "ready" | "failed" | "superseded";

/**
 * Runs one ingestion job for its workshop: `load`, `parse` (the file's text kept in D1, progress
 * by page or row), `index N` (embedding 64 chunks a step, vectors under ids fixed by the job, so a
 * step run again writes the same ones), then `commit`, the one batch that makes the document
 * searchable whole. Each step checks that its job is still the document's: a newer upload or a
 * deletion ends an older job without writing, its vectors removed. A file that cannot be read ends
 * the job as `failed` with the reason; a step that fails otherwise is retried by the engine, and
 * `failJob` records what is left when retries run out.
 */
export async function runIngestionJob(search: SearchService, params: JobParams, steps: JobSteps): Promise<JobOutcome> {
  const job = await steps.do("load", () => loadJob(search, params.jobId));
  if (!job) return "superseded";
  const parsed = await steps.do("parse", () => parseStep(search, job));
  if (parsed.outcome !== "parsed") return parsed.outcome;
  for (let from = 0; from < parsed.chunks; from += BATCH) {
    const indexed = await steps.do(`index ${from}`, () => indexStep(search, job, from, parsed.chunks));
    if (!indexed) return abandon(search, job, parsed.chunks);
  }
  return steps.do("commit", () => commitStep(search, job, parsed.chunks));
}

/** The job, only as the workshop the instance acts for holds it. */
async function loadJob({ db, tenantId }: Pick<SearchService, "db" | "tenantId">, jobId: string): Promise<Job | null> {
  const row = await db
    .prepare(
      `SELECT j.job_id AS jobId, j.document_id AS documentId, d.kb_id AS kbId, d.filename, d.source, j.base_generation AS base,
              j.kind, j.title, j.content_hash AS contentHash, j.size_bytes AS size
         FROM document_jobs j JOIN documents d ON d.id = j.document_id
        WHERE j.job_id = ?1 AND j.tenant_id = ?2 AND d.tenant_id = ?2`,
    )
    .bind(jobId, tenantId)
    .first<Job>();
  // A newer upload or a deletion took the job away before it started.
  return row;
}

async function isCurrent(db: D1Database, job: Job): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS ok FROM document_jobs WHERE job_id = ?1").bind(job.jobId).first()) !== null;
}

/** Sets the job's status and progress, while it is still the document's job. */
function progressStatement(
  db: D1Database,
  job: Job,
  status: "parsing" | "indexing",
  report: Omit<ProgressReport, "unit"> & { unit: string },
) {
  return db
    .prepare(
      `UPDATE document_jobs SET status = ?2, unit = ?3, done = ?4, total = ?5, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE job_id = ?1`,
    )
    .bind(job.jobId, status, report.unit, report.done, report.total);
}

type ParseResult = { outcome: "parsed"; chunks: number } | { outcome: "failed" | "superseded" };

async function parseStep(search: SearchService, job: Job): Promise<ParseResult> {
  const { db } = search;
  if (!(await isCurrent(db, job))) return { outcome: "superseded" };
  await progressStatement(db, job, "parsing", { unit: job.kind === "pdf" ? "pages" : "rows", done: 0, total: 0 }).run();
  const bytes = await readParts(db, job.jobId, "file");
  // Progress is written at most once a second, never awaited by the parser; the last write waits.
  let last = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const onProgress = (report: ProgressReport) => {
    if (Date.now() - last < 1000 && report.done < report.total) return;
    last = Date.now();
    writing = writing.then(() => progressStatement(db, job, "parsing", report).run()).catch(() => undefined);
  };
  let parsed: ParsedDocument;
  let prepared: PreparedChunks;
  try {
    parsed = await parseContent({
      filename: job.filename,
      kind: job.kind,
      content: bytes,
      backends: search.backends,
      onProgress,
    });
    prepared = prepareChunks(parsed, job.title ?? parsed.title, search.chunking);
    if (prepared.chunks.length === 0) {
      throw new AppError("unparseable_document", `'${job.filename}' has no text to index.`, {
        details: { problem: { reason: "no_text", params: {} } },
      });
    }
  } catch (error) {
    await writing;
    if (!(error instanceof AppError) || error.code === "upstream_failed") throw error;
    // A document deleted or uploaded again meanwhile took the file's parts with its job: not a failure of the file.
    if (!(await isCurrent(db, job))) return { outcome: "superseded" };
    await failJob(search, job, error.message, problemOf(error.details));
    return { outcome: "failed" };
  }
  await writing;
  keptPrepared.set(job.jobId, prepared);
  const text = new TextEncoder().encode(JSON.stringify({ title: prepared.title, text: parsed.text }));
  const parts: D1PreparedStatement[] = [
    db.prepare("DELETE FROM document_job_parts WHERE job_id = ?1 AND kind = 'text'").bind(job.jobId),
  ];
  for (let at = 0, part = 0; at < text.length; at += PART_BYTES, part++) {
    parts.push(
      db
        .prepare(
          `INSERT INTO document_job_parts (job_id, kind, part, data)
           SELECT ?1, 'text', ?2, ?3 WHERE EXISTS (SELECT 1 FROM document_jobs WHERE job_id = ?1)`,
        )
        .bind(job.jobId, part, text.subarray(at, at + PART_BYTES)),
    );
  }
  parts.push(progressStatement(db, job, "indexing", { unit: "chunks", done: 0, total: prepared.chunks.length }));
  await db.batch(parts);
  return { outcome: "parsed", chunks: prepared.chunks.length };
}

// The chunks a job's parse step made, kept while the same isolate runs its next steps; a step run
// elsewhere (after a restart) rebuilds them from the text the parse step stored, to the same chunks.
const keptPrepared = new Map<string, PreparedChunks>();

async function preparedOf(search: SearchService, job: Job): Promise<PreparedChunks> {
  const kept = keptPrepared.get(job.jobId);
  if (kept) return kept;
  const stored = JSON.parse(new TextDecoder().decode(await readParts(search.db, job.jobId, "text"))) as {
    title: string;
    text: string;
  };
  const prepared = prepareChunks({ title: stored.title, text: stored.text }, stored.title, search.chunking);
  keptPrepared.clear();
  keptPrepared.set(job.jobId, prepared);
  return prepared;
}

const idsOf = (job: Job, count: number) => chunkIds(job.documentId, job.base + 1, job.jobId.slice(0, 8), count);

async function indexStep(search: SearchService, job: Job, from: number, count: number): Promise<boolean> {
  if (!(await isCurrent(search.db, job))) return false;
  const prepared = await preparedOf(search, job);
  const to = Math.min(from + BATCH, count);
  await embedChunks({
    backends: search.backends,
    tenantId: search.tenantId,
    kbId: job.kbId,
    documentId: job.documentId,
    prepared,
    ids: idsOf(job, count),
    from,
    to,
  });
  await progressStatement(search.db, job, "indexing", { unit: "chunks", done: to, total: count }).run();
  return true;
}

async function commitStep(search: SearchService, job: Job, count: number): Promise<JobOutcome> {
  const { db, tenantId, backends } = search;
  const prepared = await preparedOf(search, job);
  const ids = idsOf(job, count);
  const stored = await commitChunks({
    db,
    tenantId,
    kbId: job.kbId,
    documentId: job.documentId,
    base: job.base,
    prepared,
    ids,
    document: { kind: job.kind, contentHash: job.contentHash, size: job.size, source: job.source },
    jobId: job.jobId,
  });
  if (!stored) {
    // A commit that landed before a crash, run again: the document already holds this job's chunks.
    const landed = await db
      .prepare("SELECT 1 AS ok FROM chunks WHERE id = ?1")
      .bind(ids[0] ?? "")
      .first();
    if (landed) return finish(search, job, "ready");
    return abandon(search, job, count);
  }
  await removeVectorsQuietly(backends.vectorIndex, tenantId, stored.replaced, "replaced_chunks");
  return finish(search, job, "ready");
}

/** Ends a job whose document moved on (a newer upload, a deletion): its vectors go, nothing else is touched. */
async function abandon(search: SearchService, job: Job, count: number): Promise<JobOutcome> {
  await removeVectorsQuietly(search.backends.vectorIndex, search.tenantId, idsOf(job, count), "superseded_ingestion");
  keptPrepared.delete(job.jobId);
  return "superseded";
}

async function finish(search: SearchService, job: Job, outcome: JobOutcome): Promise<JobOutcome> {
  await search.db.prepare("DELETE FROM document_jobs WHERE job_id = ?1").bind(job.jobId).run();
  keptPrepared.delete(job.jobId);
  return outcome;
}

/**
 * Ends a job as failed: the document records the reason (a new one becomes `failed`, a replaced
 * one keeps serving its previous version) and the job's row and parts go, in one batch, only while
 * it is still the document's job. Vectors its steps wrote are removed.
 */
export async function failJob(
  search: SearchService,
  job: Job | Omit<JobParams, "tenantId">,
  message: string,
  problem: FileProblem | null,
): Promise<void> {
  const { db } = search;
  const found = "base" in job ? job : await loadJob(search, job.jobId);
  if (!found) return;
  const current = await db
    .prepare("SELECT total FROM document_jobs WHERE job_id = ?1 AND unit = 'chunks'")
    .bind(found.jobId)
    .first<{ total: number }>();
  const [, deleted] = await db.batch([
    recordFailure({ db, documentId: found.documentId, base: found.base, message, problem, jobId: found.jobId }),
    db.prepare("DELETE FROM document_jobs WHERE job_id = ?1 RETURNING job_id").bind(found.jobId),
  ]);
  if (current?.total) await abandon(search, found, current.total);
  if ((deleted?.results.length ?? 0) > 0)
    log("info", "ingestion_failed", { document_id: found.documentId, reason: problem?.reason });
}

async function readParts(db: D1Database, jobId: string, kind: "file" | "text"): Promise<Uint8Array> {
  const { results } = await db
    .prepare("SELECT data FROM document_job_parts WHERE job_id = ?1 AND kind = ?2 ORDER BY part")
    .bind(jobId, kind)
    .all<{ data: ArrayBuffer | number[] }>();
  const parts = results.map((r) => (r.data instanceof ArrayBuffer ? new Uint8Array(r.data) : Uint8Array.from(r.data)));
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
