import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { UserContext } from "../user-context.ts";
import {
  auditStatement,
  changeLines,
  checkIfMatch,
  executeOnce,
  MANAGER,
  type RowUpdate,
  requireManager,
  rowChange,
  staleRow,
  updateStatements,
  type Words,
  writtenByAudit,
} from "./changes.ts";
import { localDate } from "./local-time.ts";
import type { BusinessService } from "./service.ts";
import { nameOf, timeZoneOf } from "./values.ts";

// The workshop's own settings: its name (which its people see it by) and its time zone (which
// "today", "this month" and every record's date are read in).

export interface WorkshopInput {
  name?: string | undefined;
  time_zone?: string | undefined;
}

/** The workshop's settings as a boss reads them. */
export interface WorkshopSettings {
  name: string;
  time_zone: string;
  version: number;
}

/** A change of the workshop's settings, checked, waiting to be written. */
export interface WorkshopWrite {
  update: RowUpdate;
}

const WORDS: Words = { what: "工作坊设置", labels: { name: "名称", time_zone: "时区" } };

/** The workshop's name, time zone and version, as its own record on its shard has them. */
export async function workshopSettings(business: BusinessService): Promise<WorkshopSettings> {
  const row = await business.db
    .prepare("SELECT name, time_zone, version FROM tenants WHERE id = ?1")
    .bind(business.tenantId)
    .first<WorkshopSettings>();
  if (!row) throw new AppError("not_found", "Your workshop no longer exists.");
  return row;
}

/**
 * Checks a change of the workshop's name or time zone (boss only) and previews it beside what it
 * replaces, with the workshop's today in each zone, writing nothing.
 */
export async function prepareWorkshopSettings({
  business,
  user,
  input,
  ifVersion,
}: {
  business: BusinessService;
  user: UserContext;
  input: WorkshopInput;
  ifVersion?: number[] | undefined;
}): Promise<Prepared<WorkshopWrite>> {
  requireManager(user);
  const current = await workshopSettings(business);
  checkIfMatch(ifVersion, current, "The workshop's settings");
  const after: Record<string, string> = {};
  if (input.name !== undefined) {
    const name = nameOf(input.name, "name", 100);
    if (name !== current.name) after.name = name;
  }
  if (input.time_zone !== undefined) {
    const zone = timeZoneOf(input.time_zone);
    if (zone !== current.time_zone) after.time_zone = zone;
  }
  if (Object.keys(after).length === 0) throw new AppError("invalid_input", "Nothing to change: give a new name or time_zone.");
  const update: RowUpdate = {
    table: "tenants",
    id: business.tenantId,
    version: current.version,
    before: { name: current.name, time_zone: current.time_zone },
    after,
  };
  const now = business.clock();
  const zone = after.time_zone;
  const preview = changeLines(update, WORDS);
  if (zone) {
    preview.push({ label: "今天", value: `${localDate(now, current.time_zone)} → ${localDate(now, zone)}` });
    preview.push({ label: "说明", value: "“今天”“本月”和以后的记录日期按新时区算；已有记录的日期不变" });
  }
  return {
    kind: "workshop_settings",
    write: { update },
    summary: `修改工作坊设置：${changeLines(update, WORDS)
      .map((l) => `${l.label} ${l.value}`)
      .join("，")}`,
    preview,
    ambiguities: [],
    needs: MANAGER,
  };
}

/**
 * Writes a confirmed change of the workshop's settings: its own record and the audit entry in one
 * batch, then its name in the directory (a database of its own, for a workshop on a shard): if
 * that fails, the confirm fails (retryable) and a retry of the same action sets it again.
 */
export function workshopSettingsExecutor(business: BusinessService): Executor<WorkshopWrite> {
  const { db } = business;
  return {
    kind: "workshop_settings",
    label: { zh: "工作坊设置", en: "Workshop settings" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: async ({ actionId, owner, write, summary, approval }) => {
      const outcome = await executeOnce({
        db,
        actionId,
        tenantId: owner.tenantId,
        stale: () => staleRow(db, owner.tenantId, write.update, WORDS),
        statements: () => [
          ...updateStatements(db, owner.tenantId, write.update),
          auditStatement(
            db,
            { owner, actionId, kind: "workshop_settings", entityId: owner.tenantId, summary, approval },
            { json: rowChange(write.update) },
          ),
        ],
      });
      // The directory takes the name the workshop's record has now, so a retry never brings back an older one.
      if (outcome.ok && write.update.after.name !== undefined) {
        await business.directory.setWorkshopName((await workshopSettings(business)).name);
      }
      return outcome;
    },
  };
}
