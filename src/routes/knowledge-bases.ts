import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { AppError, GENERIC_MESSAGE } from "../errors.ts";
import { log } from "../log.ts";
import { deleteDocument, getDocument, listDocuments } from "../search/documents.ts";
import { FAQ_CONTENT_TYPE } from "../search/faq.ts";
import { MAX_REQUEST_BYTES } from "../search/file-types.ts";
import { type IngestOutcome, ingestDocument } from "../search/ingest.ts";
import { reviveStalledJobs } from "../search/ingestion-job.ts";
import {
  createKnowledgeBase,
  deleteKnowledgeBase,
  getKnowledgeBase,
  listKnowledgeBases,
  updateKnowledgeBase,
} from "../search/knowledge-bases.ts";
import { readPassage } from "../search/passage.ts";
import { refusal } from "../validation.ts";
import { faqRoutes } from "./faq.ts";
import {
  BatchUploadSchema,
  CreateKnowledgeBaseSchema,
  type DocumentUpload,
  DocumentUploadSchema,
  isBatchUpload,
  ReplaceDocumentSchema,
  UpdateKnowledgeBaseSchema,
  uploadContent,
} from "./knowledge-bases.schema.ts";
import { parseUpload, readUpload, readUploadBody } from "./upload-body.ts";
import { validate } from "./validate.ts";

/**
 * `/api/knowledge-bases`: everyone in a workshop reads its bases and documents; a boss creates,
 * renames and deletes bases and uploads, replaces and deletes documents.
 */
export const knowledgeBaseRoutes = new Hono<AppEnv>();

// One file of the largest kind (a 20 MiB PDF) with its form, or a batch of text documents.
const MAX_BODY_BYTES = MAX_REQUEST_BYTES;

knowledgeBaseRoutes.use(bearerAuth());
knowledgeBaseRoutes.route("/:kbId/faq", faqRoutes);

knowledgeBaseRoutes.get("/", async (c) => {
  const knowledge_bases = await listKnowledgeBases(c.var.services.search);
  return c.json({ knowledge_bases });
});

knowledgeBaseRoutes.post("/", requirePermission("knowledge:write"), validate("json", CreateKnowledgeBaseSchema), async (c) => {
  const kb = await createKnowledgeBase({ ...c.var.services.search, ...c.req.valid("json") });
  return c.json(kb, 201);
});

knowledgeBaseRoutes.get("/:kbId", async (c) =>
  c.json(await getKnowledgeBase({ ...c.var.services.search, id: c.req.param("kbId") })),
);

knowledgeBaseRoutes.patch(
  "/:kbId",
  requirePermission("knowledge:write"),
  validate("json", UpdateKnowledgeBaseSchema),
  async (c) => {
    const kb = await updateKnowledgeBase({
      ...c.var.services.search,
      id: c.req.param("kbId"),
      ...c.req.valid("json"),
    });
    return c.json(kb);
  },
);

knowledgeBaseRoutes.delete("/:kbId", requirePermission("knowledge:write"), async (c) => {
  const id = c.req.param("kbId");
  await deleteKnowledgeBase({ ...c.var.services.search, id });
  return c.json({ id, deleted: true });
});

// Reading where documents stand also starts again any ingestion job that has stalled.
knowledgeBaseRoutes.get("/:kbId/documents", async (c) => {
  const kb = await getKnowledgeBase({ ...c.var.services.search, id: c.req.param("kbId") });
  await reviveStalledJobs({ ...c.var.services.search, kbId: kb.id });
  return c.json({ documents: await listDocuments({ ...c.var.services.search, kbId: kb.id }) });
});

knowledgeBaseRoutes.get("/:kbId/documents/:docId", async (c) => {
  await reviveStalledJobs({ ...c.var.services.search, kbId: c.req.param("kbId") });
  const document = await getDocument({
    ...c.var.services.search,
    kbId: c.req.param("kbId"),
    documentId: c.req.param("docId"),
  });
  return c.json(document);
});

// A passage the chat cites, opened beside the conversation: its text, heading path, document and base.
knowledgeBaseRoutes.get("/:kbId/passages/:chunkId", requirePermission("knowledge:read"), async (c) => {
  const passage = await readPassage({
    ...c.var.services.search,
    kbId: c.req.param("kbId"),
    chunkId: c.req.param("chunkId"),
  });
  return c.json(passage);
});

function faqBaseRefusesDocuments(): AppError {
  return new AppError("unprocessable", "This is an FAQ knowledge base: add and edit its entries under /faq, not as documents.");
}

const uploadLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError(
      "payload_too_large",
      `Uploads are limited to ${MAX_BODY_BYTES / 1024 / 1024} MiB per request (a PDF to 20 MiB, Word, Excel and CSV to 10, text to 2); send fewer or smaller files.`,
    );
  },
});

/** The path a queued document's progress is read at. */
const statusUrl = (kbId: string, documentId: string) => `/api/knowledge-bases/${kbId}/documents/${documentId}`;

// A client that prefers an answer before the work is done (RFC 7240) gets the job for any file.
const prefersAsync = (header: string | undefined) => /(^|[,;\s])respond-async\b/i.test(header ?? "");

knowledgeBaseRoutes.post("/:kbId/documents", requirePermission("knowledge:write"), uploadLimit, async (c) => {
  const { tenantId } = c.var.services.search;
  const kb = await getKnowledgeBase({ ...c.var.services.search, id: c.req.param("kbId") });
  if (kb.type === "faq") throw faqBaseRefusesDocuments();
  const body = await readUploadBody(c, MAX_BODY_BYTES);
  const preferJob = prefersAsync(c.req.header("Prefer"));
  const ingest = (doc: DocumentUpload) =>
    ingestDocument({
      ...c.var.services.search,
      preferJob,
      input: {
        tenantId,
        kbId: kb.id,
        filename: doc.filename,
        content: uploadContent(doc),
        title: doc.title,
        contentType: doc.content_type,
      },
    });
  if (!isBatchUpload(body)) {
    const outcome = await ingest(parseUpload(DocumentUploadSchema, body));
    if (outcome.status === "queued") {
      const url = statusUrl(kb.id, outcome.document.id);
      c.header("Location", url);
      return c.json({ ...outcome, status_url: url }, 202);
    }
    return c.json(outcome, outcome.status === "created" ? 201 : 200);
  }
  // Each document is checked and indexed on its own, atomically, and gets its own status: one bad
  // file neither stops the others nor leaves the client guessing what was stored.
  const { documents } = parseUpload(BatchUploadSchema, body);
  const results: BatchResult[] = [];
  for (const [index, raw] of documents.entries()) {
    const parsed = DocumentUploadSchema.safeParse(raw);
    if (!parsed.success) {
      results.push(failed(index, nameOf(raw), refusal("Invalid document", parsed.error, "invalid_input")));
      continue;
    }
    try {
      const outcome = await ingest(parsed.data);
      results.push({
        index,
        filename: parsed.data.filename,
        ...outcome,
        ...(outcome.status === "queued" ? { status_url: statusUrl(kb.id, outcome.document.id) } : {}),
      });
    } catch (error) {
      if (!(error instanceof AppError)) log("error", "batch_document_failed", { request_id: c.var.requestId, index, error });
      results.push(failed(index, parsed.data.filename, error));
    }
  }
  return c.json({ results });
});

type BatchResult =
  | ({ index: number; filename: string; status_url?: string } & IngestOutcome)
  | { index: number; filename: string | null; status: "failed"; error: { code: string; message: string } };

function failed(index: number, filename: string | null, error: unknown): BatchResult {
  const { code, message } = error instanceof AppError ? error : { code: "internal", message: GENERIC_MESSAGE };
  return { index, filename, status: "failed", error: { code, message } };
}

/** The file name of a batch entry that failed validation, when it has a usable one. */
function nameOf(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null || !Object.hasOwn(raw, "filename")) return null;
  const name = (raw as { filename: unknown }).filename;
  return typeof name === "string" ? name.slice(0, 255) : null;
}

knowledgeBaseRoutes.put("/:kbId/documents/:docId", requirePermission("knowledge:write"), uploadLimit, async (c) => {
  const { tenantId } = c.var.services.search;
  const kbId = c.req.param("kbId");
  const current = await getDocument({ ...c.var.services.search, kbId, documentId: c.req.param("docId") });
  if (current.content_type === FAQ_CONTENT_TYPE) throw faqBaseRefusesDocuments();
  const body = await readUpload(c, ReplaceDocumentSchema, MAX_BODY_BYTES);
  const outcome = await ingestDocument({
    ...c.var.services.search,
    preferJob: prefersAsync(c.req.header("Prefer")),
    input: {
      tenantId,
      kbId,
      filename: current.filename,
      content: uploadContent({ ...body, filename: current.filename }),
      title: body.title,
      contentType: body.content_type ?? current.content_type,
      replaceId: current.id,
    },
  });
  if (outcome.status === "queued") {
    const url = statusUrl(kbId, outcome.document.id);
    c.header("Location", url);
    return c.json({ ...outcome, status_url: url }, 202);
  }
  return c.json(outcome);
});

knowledgeBaseRoutes.delete("/:kbId/documents/:docId", requirePermission("knowledge:write"), async (c) => {
  const documentId = c.req.param("docId");
  await deleteDocument({
    ...c.var.services.search,
    kbId: c.req.param("kbId"),
    documentId,
  });
  return c.json({ id: documentId, deleted: true });
});
