import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { ImportProblem, ImportReport } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { auditStatement, executeOnce, MANAGER, requireManager, rowsStillAsRead, writtenByAudit } from "./changes.ts";
import { firstFew, type ImportSheet, problemAt, tableRows } from "./import-sheets.ts";
import type { BusinessService } from "./service.ts";
import { employeeNoOf, nameOf, phoneOf } from "./values.ts";

// Employees from a sheet: each row a person (姓名, 工号 and 电话 where the list has them). A row whose
// person the workshop has already (by 工号, else by their one employee of that name) changes their
// phone if it differs; any other row adds an employee, with the next 工号 when it has none. Rows
// with a problem are named by row and column and left out. All of it is written in one batch.

const COLUMNS = {
  name: ["姓名", "名字", "员工", "员工姓名", "name"],
  employee_no: ["工号", "编号", "员工编号", "员工号", "employee_no", "no"],
  phone: ["电话", "手机", "手机号", "手机号码", "联系电话", "电话号码", "phone", "mobile"],
} as const;

export interface EmployeeImportWrite {
  file: string;
  add: { id: string; name: string; employee_no: string; phone: string | null }[];
  change: { id: string; version: number; who: string; before: string | null; phone: string | null }[];
}

interface Existing {
  id: string;
  name: string;
  employee_no: string;
  phone: string | null;
  version: number;
}

/**
 * What importing a sheet of employees would do (boss only), held as a pending action and told row
 * by row in a report, writing nothing.
 */
export async function prepareEmployeeImport({
  business,
  user,
  file,
  sheets,
}: {
  business: BusinessService;
  user: UserContext;
  file: string;
  sheets: readonly ImportSheet[];
}): Promise<{ prepared: Prepared<EmployeeImportWrite>; report: ImportReport }> {
  requireManager(user);
  const { rows, skipped } = tableRows<keyof typeof COLUMNS>(sheets, COLUMNS, { required: ["name"] });
  if (rows.length === 0) {
    throw new AppError(
      "invalid_input",
      `No employees found in ${file}: a sheet needs a header row naming a 姓名 column (工号 and 电话 are optional), with a person on each row below it.`,
    );
  }
  const { results: existing } = await business.db
    .prepare("SELECT id, name, employee_no, phone, version FROM employees WHERE tenant_id = ?1")
    .bind(business.tenantId)
    .all<Existing>();
  const byNo = new Map(existing.map((e) => [e.employee_no, e]));
  const byName = new Map<string, Existing[]>();
  for (const e of existing) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
  let next = existing.reduce((n, e) => Math.max(n, Number.parseInt(e.employee_no, 10) || 0), 0);

  const problems: ImportProblem[] = [];
  const report: ImportReport = { file, add: [], change: [], unchanged: 0, problems, skipped_sheets: skipped };
  const write: EmployeeImportWrite = { file, add: [], change: [] };
  const seenNo = new Map<string, number>();
  const seenName = new Map<string, number>();
  const pending: { row: (typeof rows)[number]; name: string; no: string | null; phone: string | null }[] = [];
  for (const row of rows) {
    const check = <T>(column: string, read: () => T): T | undefined => {
      try {
        return read();
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        problems.push(problemAt(row, column, error.message.replace(/^[a-z_]+: /, "")));
        return undefined;
      }
    };
    const name = check("姓名", () => nameOf(row.cells.name, "姓名"));
    const no = row.cells.employee_no === "" ? null : check("工号", () => employeeNoOf(row.cells.employee_no, "工号"));
    const phone = check("电话", () => phoneOf(row.cells.phone, "电话"));
    if (name === undefined || no === undefined || phone === undefined) continue;
    const again = no !== null ? seenNo.get(no) : seenName.get(name);
    if (again !== undefined) {
      problems.push(
        problemAt(row, no !== null ? "工号" : "姓名", `和第 ${again} 行重复${no === null ? "：同名的员工请写上工号" : ""}`),
      );
      continue;
    }
    if (no !== null) seenNo.set(no, row.row);
    else seenName.set(name, row.row);
    const known = no !== null ? byNo.get(no) : undefined;
    if (no !== null && known && known.name !== name) {
      problems.push(problemAt(row, "工号", `工号 ${no} 是 ${known.name} 的，不是 ${name}`));
      continue;
    }
    const namesakes = no === null ? (byName.get(name) ?? []) : [];
    if (namesakes.length > 1) {
      problems.push(problemAt(row, "姓名", `车间里有 ${namesakes.length} 位叫 ${name} 的员工，请写上工号`));
      continue;
    }
    const same = known ?? namesakes[0];
    if (same) {
      if (phone === null || phone === same.phone) report.unchanged++;
      else {
        const who = `${same.name}（工号 ${same.employee_no}）`;
        write.change.push({ id: same.id, version: same.version, who, before: same.phone, phone });
        report.change.push({ sheet: row.sheet, row: row.row, text: `${who} 电话`, before: same.phone ?? "空", after: phone });
      }
      continue;
    }
    pending.push({ row, name, no, phone });
  }
  // New employees without a 工号 take the next numbers, past every number the workshop and the file have.
  for (const p of pending) if (p.no !== null) next = Math.max(next, Number.parseInt(p.no, 10) || 0);
  for (const p of pending) {
    const employeeNo = p.no ?? String(++next).padStart(3, "0");
    write.add.push({ id: `e-${crypto.randomUUID()}`, name: p.name, employee_no: employeeNo, phone: p.phone });
    report.add.push({
      sheet: p.row.sheet,
      row: p.row.row,
      text: `${p.name}（工号 ${employeeNo}${p.phone ? `，电话 ${p.phone}` : ""}）`,
    });
  }
  const summary = `导入员工：新增 ${write.add.length} 人，更新 ${write.change.length} 人（${file}）`;
  return {
    report,
    prepared: {
      kind: "employee_import",
      write: write.add.length + write.change.length > 0 ? write : null,
      summary,
      preview: [
        { label: "文件", value: file },
        {
          label: "新增",
          value: write.add.length
            ? `${write.add.length} 人：${firstFew(
                write.add.map((a) => `${a.name}（${a.employee_no}）`),
                10,
                "、",
              )}`
            : "无",
        },
        {
          label: "更新",
          value: write.change.length
            ? `${write.change.length} 人：${firstFew(
                report.change.map((c) => `${c.text} ${c.before} → ${c.after}`),
                5,
              )}`
            : "无",
        },
        { label: "不变", value: `${report.unchanged} 人` },
        {
          label: "有问题，不导入",
          value: problems.length
            ? `${problems.length} 行：${firstFew(
                problems.map((p) => `第 ${p.row} 行「${p.column}」${p.message}`),
                5,
              )}`
            : "无",
        },
      ],
      ambiguities: [],
      needs: MANAGER,
    },
  };
}

/** Why an import prepared earlier may no longer be written: a 工号 it adds was taken, or a person it changes was changed. */
async function staleImport(db: D1Database, tenantId: string, write: EmployeeImportWrite): Promise<string | null> {
  const [taken, moved] = await db.batch<{ name: string; employee_no: string }>([
    db
      .prepare(
        `SELECT e.name, e.employee_no FROM employees e JOIN json_each(?2) j ON e.employee_no = json_extract(j.value, '$.employee_no')
          WHERE e.tenant_id = ?1 LIMIT 5`,
      )
      .bind(tenantId, JSON.stringify(write.add)),
    db
      .prepare(
        `SELECT e.name, e.employee_no FROM employees e JOIN json_each(?2) j ON e.id = json_extract(j.value, '$.id')
          WHERE e.tenant_id = ?1 AND e.version != json_extract(j.value, '$.version') LIMIT 5`,
      )
      .bind(tenantId, JSON.stringify(write.change)),
  ]);
  const changed = [
    ...(taken?.results ?? []).map((e) => `工号 ${e.employee_no} 已经给了 ${e.name}`),
    ...(moved?.results ?? []).map((e) => `${e.name}（工号 ${e.employee_no}）的资料被改过`),
  ];
  return changed.length ? `准备导入之后，员工名单变了：${changed.join("；")}。这次什么都没有写入，请重新导入。` : null;
}

/** Writes a confirmed import of employees in one batch: the new employees, the changed phones, one audit entry. */
export function employeeImportExecutor(business: BusinessService): Executor<EmployeeImportWrite> {
  const { db } = business;
  return {
    kind: "employee_import",
    label: { zh: "导入员工", en: "Employee import" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) => {
      const tenantId = owner.tenantId;
      const add = JSON.stringify(write.add);
      const change = JSON.stringify(write.change);
      return executeOnce({
        db,
        actionId,
        tenantId,
        stale: () => staleImport(db, tenantId, write),
        statements: () => [
          rowsStillAsRead(db, tenantId, { table: "employees", idField: "id", rows: change }),
          db
            .prepare(
              `INSERT INTO employees (id, tenant_id, name, employee_no, phone)
               SELECT json_extract(value, '$.id'), ?1, json_extract(value, '$.name'), json_extract(value, '$.employee_no'),
                      json_extract(value, '$.phone') FROM json_each(?2)`,
            )
            .bind(tenantId, add),
          db
            .prepare(
              `UPDATE employees SET version = version + 1,
                      phone = (SELECT json_extract(j.value, '$.phone') FROM json_each(?2) j WHERE json_extract(j.value, '$.id') = employees.id)
                WHERE tenant_id = ?1 AND id IN (SELECT json_extract(value, '$.id') FROM json_each(?2))`,
            )
            .bind(tenantId, change),
          auditStatement(
            db,
            { owner, actionId, kind: "employee_import", entityId: `import-${actionId.slice(0, 32)}`, summary, approval },
            {
              json: {
                before: { phones: write.change.map((c) => ({ employee: c.who, phone: c.before })) },
                after: {
                  file: write.file,
                  added: write.add.length,
                  changed: write.change.length,
                  employees: write.add.map((a) => ({ name: a.name, employee_no: a.employee_no, phone: a.phone })),
                  phones: write.change.map((c) => ({ employee: c.who, phone: c.phone })),
                },
              },
            },
          ),
        ],
      });
    },
  };
}
