import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { api, type ImportReport } from "./api.ts";
import type { Hold } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

type What = "employees" | "prices";

const SHEET_TYPES = [
  ".xlsx",
  ".xls",
  ".csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel",
  "text/csv",
].join(",");

/**
 * 车间资料 → 从 Excel 或 CSV 导入: an employee list or a price list, with the columns its sheet needs.
 * The upload writes nothing: the server's report (rows to add, rows that change with before → after,
 * rows left out for a problem by sheet, row and column) is shown above the pending action's check,
 * whose 确认 writes every good row in one transaction and 取消 nothing.
 */
export function BusinessImport({
  today,
  hold,
  status,
  locked,
}: {
  /** The workshop's today: changed prices apply from it unless a later day is chosen. */
  today: string;
  hold: Hold;
  status: ReactNode;
  locked: boolean;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [what, setWhat] = useState<What>("employees");
  const [from, setFrom] = useState(today);
  const [file, setFile] = useState<File | null>(null);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [report, setReport] = useState<{ report: ImportReport; writes: boolean } | null>(null);
  // A report whose check was decided (确认 or 取消) is done with: the section's notice says which.
  const wasLocked = useRef(locked);
  useEffect(() => {
    if (wasLocked.current && !locked) setReport((r) => (r?.writes ? null : r));
    wasLocked.current = locked;
  }, [locked]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem(w.importChooseFile);
    setProblem(null);
    setReport(null);
    setReading(true);
    await hold("import", async () => {
      const answer = await api.importSheet(what, file, what === "prices" ? from : undefined);
      setReport({ report: answer.report, writes: answer.action !== null });
      return answer.action;
    });
    setReading(false);
  };
  return (
    <section className="business-part" aria-labelledby="business-import">
      <h4 id="business-import">{w.importTitle}</h4>
      <form className="mcp-add business-form" aria-label={w.importTitle} onSubmit={(e) => void send(e)}>
        <label>
          <span>{w.importWhat}</span>
          <select name="what" value={what} onChange={(e) => setWhat(e.target.value as What)}>
            <option value="employees">{w.importEmployees}</option>
            <option value="prices">{w.importPrices}</option>
          </select>
        </label>
        <label>
          <span>{w.importFile}</span>
          <input name="file" type="file" accept={SHEET_TYPES} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        {what === "prices" && (
          <label>
            <span>{w.importFrom}</span>
            <input
              name="effective_from"
              type="date"
              required
              min={today}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          </label>
        )}
        <p className="muted">{what === "employees" ? w.importEmployeesColumns : w.importPricesColumns}</p>
        {problem && (
          <p className="error-text" role="alert">
            {problem}
          </p>
        )}
        <div className="mcp-actions">
          <button type="submit" className="primary" disabled={locked || reading}>
            {reading ? w.importReading : w.importCheck}
          </button>
        </div>
      </form>
      {report && <ReportView report={report.report} />}
      {report && !report.writes && <p className="muted">{w.reportNothing}</p>}
      {status}
    </section>
  );
}

/** What importing a file would do, row by row, as the server checked it. */
function ReportView({ report }: { report: ImportReport }) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  return (
    <section className="business-report" aria-label={w.reportOf(report.file)}>
      <p>
        <strong>{w.reportOf(report.file)}</strong>
      </p>
      {report.add.length > 0 && (
        <div data-report="add">
          <p>{w.reportAdd(report.add.length)}</p>
          <ul>
            {report.add.map((r) => (
              <li key={`${r.sheet}\u0000${r.row}\u0000${r.text}`}>
                <span className="muted">{w.reportWhere(r.sheet, r.row)}</span> {r.text}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.change.length > 0 && (
        <div data-report="change">
          <p>{w.reportChange(report.change.length)}</p>
          <ul>
            {report.change.map((r) => (
              <li key={`${r.sheet}\u0000${r.row}\u0000${r.text}`}>
                <span className="muted">{w.reportWhere(r.sheet, r.row)}</span> {r.text}: {w.reportBefore} {r.before} →{" "}
                {w.reportAfter} <strong>{r.after}</strong>
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.unchanged > 0 && <p className="muted">{w.reportUnchanged(report.unchanged)}</p>}
      {report.problems.length > 0 && (
        <div data-report="problems">
          <p className="error-text">{w.reportProblems(report.problems.length)}</p>
          <ul>
            {report.problems.map((p) => (
              <li key={`${p.sheet}\u0000${p.row}\u0000${p.column}`} data-sheet={p.sheet} data-row={p.row} data-column={p.column}>
                <span className="muted">{w.reportWhere(p.sheet, p.row)}</span> {w.reportColumn(p.column)}:{" "}
                {p.message.startsWith(`${p.column}: `) ? p.message.slice(p.column.length + 2) : p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.skipped_sheets.length > 0 && <p className="muted">{w.reportSkipped(report.skipped_sheets.join(", "))}</p>}
    </section>
  );
}
