import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { requirePermission } from "../auth/middleware.ts";
import { AppError, badRequest } from "../errors.ts";
import { deleteFaqEntry, type FaqSaveOutcome, getFaqEntry, listFaqEntries, requireFaqBase, saveFaqEntry } from "../search/faq.ts";
import { faqEntriesFromCsv } from "../search/faq-csv.ts";
import { describeIssues } from "../validation.ts";
import { FAQ_LIMITS, FaqEntrySchema, FaqImportSchema } from "./faq.schema.ts";
import { etagOf, ifMatchVersions } from "./if-match.ts";
import { validate } from "./validate.ts";

/**
 * `/api/knowledge-bases/:kbId/faq`: the entries of an FAQ knowledge base. Everyone in the workshop
 * reads them; a boss adds, replaces, deletes and imports them (JSON or CSV). Search finds them by
 * their questions and answers with the answer. Mounted inside `knowledgeBaseRoutes`, whose bearer
 * authentication it relies on.
 *
 * An entry carries its `version`, also as `ETag`; `PUT` and `DELETE` of one entry honour
 * `If-Match`, answering 409 with the entry as it stands when it has moved on (see `saveFaqEntry`).
 */
export const faqRoutes = new Hono<AppEnv>();

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** The FAQ base the path names, checked to be theirs and of type `faq`. */
async function faqBaseOf(c: Context<AppEnv>) {
  return requireFaqBase({ ...c.var.services.search, kbId: c.req.param("kbId") as string });
}

faqRoutes.get("/", async (c) => {
  const kb = await faqBaseOf(c);
  const entries = await listFaqEntries({ ...c.var.services.search, kbId: kb.id });
  return c.json({ entries, total_count: entries.length });
});

faqRoutes.post("/", requirePermission("knowledge:write"), validate("json", FaqEntrySchema), async (c) => {
  const kb = await faqBaseOf(c);
  const outcome = await saveFaqEntry({
    ...c.var.services.search,
    kbId: kb.id,
    input: c.req.valid("json"),
  });
  c.header("ETag", etagOf(outcome.entry.version));
  return c.json(outcome.entry, 201);
});

faqRoutes.post(
  "/import",
  requirePermission("knowledge:write"),
  bodyLimit({
    maxSize: MAX_IMPORT_BYTES,
    onError: () => {
      throw new AppError("payload_too_large", `An import is limited to ${MAX_IMPORT_BYTES / 1024 / 1024} MiB; split it.`);
    },
  }),
  async (c) => {
    const kb = await faqBaseOf(c);
    const entries = await readImport(c);
    // Each entry is saved on its own, atomically, matched to an existing one by its standard question.
    const results: (FaqSaveOutcome | { status: "failed"; index: number; error: { code: string; message: string } })[] = [];
    for (const [index, raw] of entries.entries()) {
      const parsed = FaqEntrySchema.safeParse(raw);
      if (!parsed.success) {
        results.push({ status: "failed", index, error: { code: "invalid_input", message: describeIssues(parsed.error) } });
        continue;
      }
      try {
        results.push(
          await saveFaqEntry({
            ...c.var.services.search,
            kbId: kb.id,
            input: parsed.data,
            upsert: true,
          }),
        );
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ status: "failed", index, error: { code: error.code, message: error.message } });
      }
    }
    const count = (status: string) => results.filter((r) => r.status === status).length;
    return c.json({
      results,
      created: count("created"),
      replaced: count("replaced"),
      unchanged: count("unchanged"),
      failed: count("failed"),
    });
  },
);

faqRoutes.get("/:entryId", async (c) => {
  const kb = await faqBaseOf(c);
  const entry = await getFaqEntry({ ...c.var.services.search, kbId: kb.id, id: c.req.param("entryId") });
  c.header("ETag", etagOf(entry.version));
  return c.json(entry);
});

faqRoutes.put("/:entryId", requirePermission("knowledge:write"), validate("json", FaqEntrySchema), async (c) => {
  const kb = await faqBaseOf(c);
  const outcome = await saveFaqEntry({
    ...c.var.services.search,
    kbId: kb.id,
    input: c.req.valid("json"),
    targetId: c.req.param("entryId"),
    ifVersion: ifMatchVersions(c.req.header("If-Match")),
  });
  c.header("ETag", etagOf(outcome.entry.version));
  return c.json(outcome.entry);
});

faqRoutes.delete("/:entryId", requirePermission("knowledge:write"), async (c) => {
  const kb = await faqBaseOf(c);
  const id = c.req.param("entryId");
  await deleteFaqEntry({
    ...c.var.services.search,
    kbId: kb.id,
    id,
    ifVersion: ifMatchVersions(c.req.header("If-Match")),
  });
  return c.json({ id, deleted: true });
});

/** The entries of an import: JSON `{ entries }`, a CSV body, or a `.csv` / `.json` file in form data. */
async function readImport(c: Context<AppEnv>): Promise<unknown[]> {
  const type = c.req.header("Content-Type") ?? "";
  let text: string;
  let format: "json" | "csv";
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw badRequest("The multipart body could not be read: it is truncated, or its parts do not match its boundary.");
    }
    const file = form.get("file");
    if (!file || typeof file === "string") throw badRequest("Send the FAQ file as a form field named 'file'.");
    if (/\.csv$/i.test(file.name) || file.type === "text/csv") format = "csv";
    else if (/\.json$/i.test(file.name) || file.type === "application/json") format = "json";
    else throw new AppError("unsupported_media_type", "Send the FAQ as a .csv or a .json file.");
    text = await file.text();
  } else if (type.startsWith("text/csv")) {
    format = "csv";
    text = await c.req.text();
  } else if (type.startsWith("application/json")) {
    format = "json";
    text = await c.req.text();
  } else {
    throw new AppError(
      "unsupported_media_type",
      "Send application/json ({ entries }), text/csv, or a file in multipart/form-data.",
    );
  }
  if (format === "csv") {
    const entries = faqEntriesFromCsv(text);
    if (entries.length === 0) throw badRequest("The CSV has a header but no entries.");
    if (entries.length > FAQ_LIMITS.importEntries) {
      throw badRequest(`An import holds at most ${FAQ_LIMITS.importEntries} entries; this one has ${entries.length}.`);
    }
    return entries;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The FAQ is not valid JSON.");
  }
  const parsed = FaqImportSchema.safeParse(body);
  if (!parsed.success) throw badRequest(`Invalid body: ${describeIssues(parsed.error)}`);
  return parsed.data.entries;
}
