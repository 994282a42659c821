import { type Context, Hono } from "hono";
import { holdAction } from "../actions/actions.ts";
import type { Prepared } from "../actions/types.ts";
import type { AppEnv } from "../app-env.ts";
import { prepareEmployeeImport } from "../business/employee-import.ts";
import type { ImportSheet } from "../business/import-sheets.ts";
import { preparePriceImport } from "../business/price-import.ts";
import { AppError, badRequest } from "../errors.ts";
import { checkSize, fileKindOf } from "../search/file-types.ts";
import { csvSheet, workbookSheets } from "../search/sheet-text.ts";
import { checkOfficeZip } from "../search/zip-guard.ts";
import type { ImportReport } from "../shapes.ts";
import { refusal } from "../validation.ts";
import { PriceImportFieldsSchema } from "./business.schema.ts";

/**
 * `POST /api/business/import/employees` and `…/import/prices` (under the business routes' boss
 * check): a sheet sent as multipart form data (`file`: .xlsx, .xls or .csv, as Excel, WPS or a
 * Chinese Windows saves it; for prices also `effective_from`), read by the same parsers as the
 * knowledge bases' files, answered with what importing it would do row by row (`report`) and the
 * pending action that does it (`action`), written in one batch once its person says yes. A file
 * that changes nothing answers `action: null` with its report.
 */
export const businessImportRoutes = new Hono<AppEnv>();

const SHEET_KINDS = new Set(["xlsx", "xls", "csv"]);

/** The form's file and its other fields, read once. */
async function formOf(c: Context<AppEnv>): Promise<{ file: File; fields: Record<string, string> }> {
  if (!(c.req.header("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("unsupported_media_type", "Send the sheet as multipart/form-data, in a field named 'file'.");
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badRequest("The multipart body could not be read: it is truncated, or its parts do not match its boundary.");
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw badRequest("Send the sheet as a form field named 'file'.");
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === "string" && name !== "file") fields[name] = value;
  return { file, fields };
}

/** A sheet file's sheets, by the knowledge bases' parsers (a workbook's zip checked for bombs first). */
async function sheetsOf(file: File): Promise<ImportSheet[]> {
  const kind = fileKindOf(file.name, file.type || undefined);
  if (!SHEET_KINDS.has(kind)) {
    throw new AppError("unsupported_media_type", `'${file.name}' is not a sheet: send the list as .xlsx, .xls or .csv.`);
  }
  checkSize(file.name, kind, file.size);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (kind === "csv") return [csvSheet(file.name, bytes)];
  if (kind === "xlsx") checkOfficeZip(bytes, "Excel");
  return workbookSheets(bytes);
}

/** The report, and the pending action when the file changes something: 201, else 200 with `action: null`. */
async function answer(c: Context<AppEnv>, { prepared, report }: { prepared: Prepared; report: ImportReport }) {
  if (prepared.write === null) return c.json({ action: null, report });
  const action = await holdAction({ actions: c.var.services.actions, user: c.var.user, prepared });
  return c.json({ action, report }, 201);
}

businessImportRoutes.post("/employees", async (c) => {
  const { file } = await formOf(c);
  const sheets = await sheetsOf(file);
  return answer(c, await prepareEmployeeImport({ business: c.var.services.business, user: c.var.user, file: file.name, sheets }));
});

businessImportRoutes.post("/prices", async (c) => {
  const { file, fields } = await formOf(c);
  const parsed = PriceImportFieldsSchema.safeParse(fields);
  if (!parsed.success) throw refusal("Invalid form data", parsed.error);
  const sheets = await sheetsOf(file);
  return answer(
    c,
    await preparePriceImport({
      business: c.var.services.business,
      user: c.var.user,
      file: file.name,
      sheets,
      effectiveFrom: parsed.data.effective_from,
    }),
  );
});
