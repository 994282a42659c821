import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { UserContext } from "../user-context.ts";
import {
  AUDIT_FREE_PARAM,
  auditStatement,
  changeLines,
  checkIfMatch,
  executeOnce,
  guard,
  MANAGER,
  type RowUpdate,
  requireManager,
  rowChange,
  staleRow,
  updateStatements,
  type Words,
  writtenByAudit,
} from "./changes.ts";
import { yuan } from "./money.ts";
import { settle } from "./name-match.ts";
import { processCandidates, styleCandidates } from "./processes.ts";
import type { BusinessService } from "./service.ts";
import { centsOf, nameOf, styleCodeOf } from "./values.ts";

// Styles (款式) and their processes (工序): a boss adds a style, or a process to a style with its
// first price, renames them, and disables a process no longer done (its records and prices stay)
// or enables it again. A process's later prices are changes of their own (price-changes.ts).

export const PROCESS_CHANGES = ["add", "edit", "disable", "enable", "add_style", "edit_style"] as const;
export type ProcessChange = (typeof PROCESS_CHANGES)[number];

export interface ProcessInput {
  change: ProcessChange;
  style?: string | undefined;
  process?: string | undefined;
  name?: string | undefined;
  code?: string | undefined;
  unit_price?: number | undefined;
}

/** A change of a style or a process, checked, waiting to be written. */
export type ProcessWrite =
  | { change: "add_style"; code: string; name: string }
  | { change: "add"; styleId: string; styleLabel: string; name: string; unitPriceCents: number }
  | { change: "edit" | "disable" | "enable" | "edit_style"; update: RowUpdate; what: string };

const STYLE_WORDS = (what: string): Words => ({ what, labels: { code: "款号", name: "款式名称" } });
const PROCESS_WORDS = (what: string): Words => ({
  what,
  labels: { name: "工序名称", active: "状态" },
  show: (column, value) => (column === "active" ? (value === 1 ? "启用" : "停用") : String(value ?? "空")),
});

const CHANGE_WORDS: Record<ProcessChange, string> = {
  add: "新增工序",
  edit: "修改工序",
  disable: "停用工序",
  enable: "启用工序",
  add_style: "新增款式",
  edit_style: "修改款式",
};

async function styleHolding(business: BusinessService, code: string): Promise<{ id: string; name: string } | null> {
  return business.db
    .prepare("SELECT id, name FROM styles WHERE tenant_id = ?1 AND code = ?2")
    .bind(business.tenantId, code)
    .first<{ id: string; name: string }>();
}

async function processNamed(business: BusinessService, styleId: string, name: string): Promise<{ id: string } | null> {
  return business.db
    .prepare("SELECT id FROM processes WHERE tenant_id = ?1 AND style_id = ?2 AND name = ?3")
    .bind(business.tenantId, styleId, name)
    .first<{ id: string }>();
}

const ambiguous = (change: ProcessChange, said: string, ambiguity: NonNullable<ReturnType<typeof settle>["ambiguity"]>) =>
  ({
    kind: "process",
    write: null,
    summary: `${CHANGE_WORDS[change]}：${said}`,
    preview: [{ label: ambiguity.field === "style" ? "款式" : "工序", value: "待选择" }],
    ambiguities: [ambiguity],
    needs: MANAGER,
  }) satisfies Prepared<ProcessWrite>;

/**
 * Checks a change of the workshop's styles and processes (boss only) and previews it, writing
 * nothing. A style's code and a process's name within its style are each the workshop's one.
 */
export async function prepareProcess({
  business,
  user,
  input,
  ifVersion,
}: {
  business: BusinessService;
  user: UserContext;
  input: ProcessInput;
  ifVersion?: number[] | undefined;
}): Promise<Prepared<ProcessWrite>> {
  requireManager(user);
  const { tenantId } = business;
  if (input.change === "add_style") {
    if (input.code === undefined || input.name === undefined) {
      throw new AppError("invalid_input", "code and name: say the new style's code (款号, A02) and name (女式衬衫).");
    }
    const code = styleCodeOf(input.code);
    const name = nameOf(input.name, "name");
    const holder = await styleHolding(business, code);
    if (holder) throw new AppError("conflict", `款号 ${code} is already the style ${holder.name}.`);
    return {
      kind: "process",
      write: { change: "add_style", code, name },
      summary: `新增款式：${code} ${name}`,
      preview: [
        { label: "款号", value: code },
        { label: "款式名称", value: name },
        { label: "工序", value: "还没有：确认后再给这个款式加工序和单价" },
      ],
      ambiguities: [],
      needs: MANAGER,
    };
  }
  const styles = await styleCandidates({ business, tenantId });
  const style = input.style === undefined ? undefined : settle(styles, input.style, "styles", "style");
  if (style?.ambiguity) return ambiguous(input.change, input.style ?? "", style.ambiguity);
  if (input.change === "edit_style") {
    if (!style?.item) throw new AppError("invalid_input", "style: say which style (款号, name or id).");
    const current = style.item;
    checkIfMatch(ifVersion, current, `The style ${current.label}`);
    const after: Record<string, string> = {};
    if (input.code !== undefined && styleCodeOf(input.code) !== current.code) {
      const code = styleCodeOf(input.code);
      const holder = await styleHolding(business, code);
      if (holder) throw new AppError("conflict", `款号 ${code} is already the style ${holder.name}.`);
      after.code = code;
    }
    if (input.name !== undefined && nameOf(input.name, "name") !== current.name) after.name = nameOf(input.name, "name");
    if (Object.keys(after).length === 0)
      throw new AppError("invalid_input", `Nothing to change: give a new code or name for ${current.label}.`);
    const update: RowUpdate = {
      table: "styles",
      id: current.id,
      version: current.version,
      before: { code: current.code, name: current.name },
      after,
    };
    return changed(input.change, update, current.label, STYLE_WORDS(current.label));
  }
  if (input.change === "add") {
    if (!style?.item) throw new AppError("invalid_input", "style: say which style the process is of (款号, name or id).");
    if (input.name === undefined || input.unit_price === undefined) {
      throw new AppError("invalid_input", "name and unit_price: say the process's name and its price per piece in yuan.");
    }
    const name = nameOf(input.name, "name");
    const cents = centsOf(input.unit_price, "unit_price");
    if (await processNamed(business, style.item.id, name)) {
      throw new AppError(
        "conflict",
        `${style.item.label} already has a process ${name}; give it another name, or change its price.`,
      );
    }
    return {
      kind: "process",
      write: { change: "add", styleId: style.item.id, styleLabel: style.item.label, name, unitPriceCents: cents },
      summary: `新增工序：${style.item.label} ${name}，${yuan(cents)} 元/件`,
      preview: [
        { label: "款式", value: style.item.label },
        { label: "工序", value: name },
        { label: "单价", value: `${yuan(cents)} 元/件` },
        { label: "顺序", value: "排在这个款式的最后" },
      ],
      ambiguities: [],
      needs: MANAGER,
    };
  }
  if (input.process === undefined) throw new AppError("invalid_input", "process: say which process (name or id).");
  const processes = await processCandidates({ business, tenantId, styleId: style?.item?.id });
  const process = settle(processes, input.process, style?.item ? "processes of this style" : "processes", "process");
  if (process.ambiguity) return ambiguous(input.change, input.process, process.ambiguity);
  const current = process.item;
  checkIfMatch(ifVersion, current, `The process ${current.name} (${current.styleLabel})`);
  const what = `${current.name}（${current.styleLabel}）`;
  const active = current.active ? 1 : 0;
  const before = { name: current.name, active };
  let after: Record<string, string | number>;
  if (input.change === "edit") {
    if (input.name === undefined) throw new AppError("invalid_input", `name: give the new name for ${what}.`);
    const name = nameOf(input.name, "name");
    if (name === current.name) throw new AppError("invalid_input", `${what} is already called ${name}.`);
    if (await processNamed(business, current.styleId, name)) {
      throw new AppError("conflict", `${current.styleLabel} already has a process ${name}.`);
    }
    after = { name };
  } else {
    const want = input.change === "enable" ? 1 : 0;
    if (active === want) throw new AppError("unprocessable", `${what} is already ${want ? "启用" : "停用"}.`);
    after = { active: want };
  }
  return changed(
    input.change,
    { table: "processes", id: current.id, version: current.version, before, after },
    what,
    PROCESS_WORDS(what),
  );
}

function changed(change: ProcessChange, update: RowUpdate, what: string, words: Words): Prepared<ProcessWrite> {
  const note =
    change === "disable"
      ? [{ label: "说明", value: "停用后不能再登记这道工序；以前的计件和单价都保留" }]
      : change === "edit" || change === "edit_style"
        ? [{ label: "说明", value: "以前的计件记录跟着改名，单价不变" }]
        : [];
  return {
    kind: "process",
    write: { change: change as "edit" | "disable" | "enable" | "edit_style", update, what },
    summary: `${CHANGE_WORDS[change]}：${what}`,
    preview: [{ label: update.table === "styles" ? "款式" : "工序", value: what }, ...changeLines(update, words), ...note],
    ambiguities: [],
    needs: MANAGER,
  };
}

/** Whether the new code or name a change gives was taken by another style or process meanwhile. */
async function taken(business: BusinessService, update: RowUpdate): Promise<string | null> {
  const { code, name } = update.after;
  if (update.table === "styles" && typeof code === "string") {
    const holder = await styleHolding(business, code);
    return holder && holder.id !== update.id ? `准备之后，款号 ${code} 已经是款式 ${holder.name} 了。这次没有写入。` : null;
  }
  if (update.table === "processes" && typeof name === "string") {
    const row = await business.db
      .prepare(
        `SELECT o.id FROM processes p JOIN processes o ON o.tenant_id = p.tenant_id AND o.style_id = p.style_id AND o.name = ?3
          WHERE p.id = ?1 AND p.tenant_id = ?2 AND o.id != p.id`,
      )
      .bind(update.id, business.tenantId, name)
      .first();
    return row ? `准备之后，这个款式已经有了工序 ${name}。这次没有写入。` : null;
  }
  return null;
}

/** Writes a confirmed change of a style or a process, with its audit entry in the same batch. */
export function processExecutor(business: BusinessService): Executor<ProcessWrite> {
  const { db } = business;
  return {
    kind: "process",
    label: { zh: "款式和工序", en: "Styles and processes" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) => {
      const entry = { owner, actionId, kind: "process", summary, approval };
      const tenantId = owner.tenantId;
      if (write.change === "add_style") {
        const id = `st-${actionId.slice(0, 32)}`;
        return executeOnce({
          db,
          actionId,
          tenantId,
          stale: async () => {
            const holder = await styleHolding(business, write.code);
            return holder ? `准备之后，款号 ${write.code} 已经是款式 ${holder.name} 了。这次没有写入。` : null;
          },
          statements: () => [
            db
              .prepare("INSERT INTO styles (id, tenant_id, code, name) VALUES (?1, ?2, ?3, ?4)")
              .bind(id, tenantId, write.code, write.name),
            auditStatement(
              db,
              { ...entry, entityId: id },
              { json: { before: null, after: { code: write.code, name: write.name } } },
            ),
          ],
        });
      }
      if (write.change === "add") {
        const id = `p-${actionId.slice(0, 32)}`;
        return executeOnce({
          db,
          actionId,
          tenantId,
          stale: async () => {
            const style = await db
              .prepare("SELECT 1 FROM styles WHERE id = ?1 AND tenant_id = ?2")
              .bind(write.styleId, tenantId)
              .first();
            if (!style) return `准备之后，款式 ${write.styleLabel} 已经不存在了。这次没有写入。`;
            return (await processNamed(business, write.styleId, write.name))
              ? `准备之后，${write.styleLabel} 已经有了工序 ${write.name}。这次没有写入。`
              : null;
          },
          statements: () => [
            guard(db, "EXISTS (SELECT 1 FROM styles WHERE id = ?1 AND tenant_id = ?2)", write.styleId, tenantId),
            db
              .prepare(
                `INSERT INTO processes (id, tenant_id, style_id, name, unit_price_cents, sort_order)
                 SELECT ?1, ?2, ?3, ?4, ?5, COALESCE((SELECT MAX(sort_order) FROM processes WHERE tenant_id = ?2 AND style_id = ?3), 0) + 1`,
              )
              .bind(id, tenantId, write.styleId, write.name, write.unitPriceCents),
            auditStatement(
              db,
              { ...entry, entityId: id },
              {
                sql: `json_object('before', NULL, 'after', json_object('style', ?${AUDIT_FREE_PARAM + 1}, 'name', name, 'unit_price_cents', unit_price_cents, 'sort_order', sort_order))`,
                from: `FROM processes WHERE id = ?${AUDIT_FREE_PARAM}`,
                params: [id, write.styleLabel],
              },
            ),
          ],
        });
      }
      const { update, what } = write;
      const words = update.table === "styles" ? STYLE_WORDS(what) : PROCESS_WORDS(what);
      return executeOnce({
        db,
        actionId,
        tenantId,
        stale: async () => (await staleRow(db, tenantId, update, words)) ?? (await taken(business, update)),
        statements: () => [
          ...updateStatements(db, tenantId, update),
          auditStatement(db, { ...entry, entityId: update.id }, { json: rowChange(update) }),
        ],
      });
    },
  };
}
