import { z } from "zod";
import { employeeFilter, orderFilter, processFilter } from "../business/filters.ts";
import { resolveDates } from "../business/local-time.ts";
import { GROUPINGS, PIECE_SORTS, type PieceGroup, queryPieceRecords } from "../business/piece-records.ts";
import { callerOf } from "../business/workshop.ts";
import { AppliedSchema, ClockSchema, count, filterWords, money, periodOf, periodWords } from "./applied.ts";
import { dateFilterFields, MoneySchema, nameField, pageFields, READ_ONLY, topField } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

const TotalsSchema = z.object({ records: z.number().int(), pieces: z.number().int(), amount: MoneySchema });

const FIELD_WORDS = pick("employee", "process", "order", "period", "month", "date_from", "date_to", "group_by", "sort_by", "top");

const GROUP_WORDS: Record<(typeof GROUPINGS)[number], string> = {
  employee: "员工",
  process: "工序",
  order: "订单",
  date: "日期",
};

/** Piece records (计件) with totals, scoped by role. */
export const queryPieceRecordsTool = defineTool({
  name: "query_piece_records",
  words: {
    title: said("查计件", "Look up piece records"),
    icon: "records",
    fields: { ...FIELD_WORDS, ...pick("today", "yesterday", "this_week", "last_week", "this_month", "last_month") },
    results: pick(
      "work_date",
      "employee",
      "process",
      "style",
      "order",
      "quantity",
      "unit_price",
      "amount",
      "records",
      "pieces",
      "label",
      "totals",
    ),
    lists: { records: said("计件记录", "piece records"), groups: said("分组小计", "subtotals") },
    offer: {
      ...said("查计件（例如：“李娟今天做了多少件”）", 'piece records ("how many pieces did Li Juan do today")'),
      own: said("查计件（例如：“我今天做了多少件”）", 'piece records ("how many pieces did I do today")'),
    },
  },
  description:
    "Piece records (计件): who made how many pieces of which process, for which order and day, and the amount. " +
    "group_by gives subtotals instead, most pieces first (who made the most this month: period this_month, " +
    "group_by employee, top 3). No period: every record. A boss sees all, staff their own. At most about 4,000 " +
    "characters by default (10 rows).",
  inputSchema: z.object({
    employee: nameField("Name, 工号 or id.").optional(),
    process: nameField("Name or id (领子 finds 上领子).").optional(),
    order: nameField("Number (2026-015) or id.").optional(),
    ...dateFilterFields,
    group_by: z.enum(GROUPINGS).optional().describe("Subtotals in place of records."),
    with_records: z.boolean().default(false).describe("With group_by, the records too."),
    sort_by: z
      .enum(PIECE_SORTS)
      .optional()
      .describe("Records: date (default, newest first), pieces, amount. Groups: pieces (default), amount, name."),
    top: topField,
    ...pageFields,
  }),
  outputSchema: z.object({
    ...AppliedSchema,
    totals: TotalsSchema.extend({ groups: z.number().int().optional() }),
    groups: z.array(TotalsSchema.extend({ key: z.string(), label: z.string() })).optional(),
    records: z
      .array(
        z.object({
          id: z.string(),
          work_date: z.string(),
          employee: z.object({ id: z.string(), name: z.string() }),
          process: z.object({ id: z.string(), name: z.string() }),
          style: z.object({ code: z.string(), name: z.string() }),
          order: z.object({ id: z.string(), order_no: z.string() }),
          quantity: z.number().int(),
          unit_price: MoneySchema,
          amount: MoneySchema,
          entered_by: z.string().nullable(),
        }),
      )
      .optional(),
    scope: z.enum(["workshop", "own"]),
    next_cursor: z.string().nullable(),
    ...ClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const { tenantId } = business;
    const caller = await callerOf({ business, user: ctx.user });
    const range = resolveDates(input, caller.today);
    const employee = await employeeFilter({ business, caller, employee: input.employee });
    const process = await processFilter({ business, tenantId, process: input.process });
    const order = await orderFilter({ business, tenantId, order: input.order });
    const result = await queryPieceRecords({
      business,
      tenantId,
      employeeId: employee?.ids[0],
      processIds: process?.ids,
      orderId: order?.ids[0],
      dates: range,
      listing: {
        groupBy: input.group_by,
        withRecords: input.with_records,
        sortBy: input.sort_by,
        top: input.top,
        limit: input.limit,
        cursor: input.cursor,
      },
    });
    const period = periodOf({ period: input.period, month: input.month, range, of: "work_date", today: caller.today });
    const filters: Record<string, string> = {};
    if (employee) filters.employee = employee.label;
    if (process) filters.process = process.label;
    if (order) filters.order = order.label;
    const assumptions = [
      ...[employee, process, order].flatMap((f) => (f?.readFrom ? [`把“${f.readFrom}”当作 ${f.label}`] : [])),
      ...(caller.seesAll ? [] : ["员工只能看自己的记录"]),
      ...(range ? [] : ["没有说时间，按全部记录统计"]),
    ];
    const scope = caller.seesAll ? ("workshop" as const) : ("own" as const);
    const { totals } = result;
    // Staff ask about themselves, so their answer is said to them (你); the filters name them still.
    const who = caller.seesAll
      ? filterWords(filters, FIELD_WORDS) || "全车间"
      : ["你", filterWords(rest(filters), FIELD_WORDS)].filter(Boolean).join("，");
    const grouping = input.group_by ? groupSentence(input.group_by, result.groups ?? [], totals.groups ?? 0) : "";
    const summary =
      `${who}，${periodWords(period, caller.today)}：共 ${count(totals.pieces)} 件，计 ${money(totals.amount.cents)}` +
      `（${count(totals.records)} 条记录）。${grouping}`;
    const structured = {
      summary,
      period,
      filters,
      assumptions,
      totals,
      ...(result.groups ? { groups: result.groups } : {}),
      ...(result.items ? { records: result.items } : {}),
      scope,
      next_cursor: result.next_cursor,
      today: caller.today,
      time_zone: caller.timeZone,
    };
    return { kind: "result", structured, text: summary };
  },
});

/** The filters but the employee: a staff member's own, said as 你. */
function rest(filters: Record<string, string>): Record<string, string> {
  const { employee: _, ...others } = filters;
  return others;
}

// "按员工分组，共 5 组；最多的是 张三 1,234 件（¥...）、李娟 …" for the groups listed first.
function groupSentence(by: (typeof GROUPINGS)[number], groups: PieceGroup[], all: number): string {
  const shown = groups
    .slice(0, 3)
    .map((g) => `${g.label} ${count(g.pieces)} 件`)
    .join("、");
  return `按${GROUP_WORDS[by]}分组共 ${all} 组${shown ? `，列在最前的：${shown}` : ""}。`;
}
