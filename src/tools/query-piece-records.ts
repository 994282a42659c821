import { z } from "zod";
import { employeeFilter, orderFilter, processFilter } from "../business/filters.ts";
import { resolveDates } from "../business/local-time.ts";
import { GROUPINGS, queryPieceRecords } from "../business/piece-records.ts";
import { callerOf } from "../business/workshop.ts";
import {
  dateFilterFields,
  MoneySchema,
  nameField,
  pageFields,
  RangeSchema,
  READ_ONLY,
  WorkshopClockSchema,
} from "./business-fields.ts";
import { defineTool } from "./tool.ts";

const TotalsSchema = z.object({ records: z.number().int(), pieces: z.number().int(), amount: MoneySchema });

/** Piece records (计件) with totals, scoped by role. */
export const queryPieceRecordsTool = defineTool({
  name: "query_piece_records",
  title: "Query piece records",
  description:
    "Piece records (计件记录): who did how many pieces of which process for which order on which day, with the amount " +
    "(quantity × the unit price recorded with it). `totals` covers every matching record, not just this page: use it " +
    "for questions like '张三这个月做了多少件' (employee 张三, period this_month). group_by gives subtotals per " +
    "employee, process, order or date ('each person's pieces this month': group_by employee). Dates are the " +
    "workshop's. A boss sees the whole workshop; staff see only their own records. Names are matched forgivingly; an " +
    "ambiguous or unknown name comes back as an error listing the candidates: ask the user, don't guess.",
  inputSchema: z.object({
    employee: nameField("Only this employee: name, 工号 or id. Staff may leave it out (they only see their own).").optional(),
    process: nameField("Only this process: name (领子 finds 上领子 when it is the only match) or id.").optional(),
    order: nameField("Only this order: number (2026-015) or id.").optional(),
    ...dateFilterFields,
    group_by: z.enum(GROUPINGS).optional().describe("Also return subtotals per employee, process, order or date."),
    ...pageFields,
  }),
  outputSchema: z.object({
    records: z.array(
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
    ),
    totals: TotalsSchema,
    groups: z.array(TotalsSchema.extend({ key: z.string(), label: z.string() })).optional(),
    range: RangeSchema,
    scope: z.enum(["workshop", "own"]),
    next_cursor: z.string().nullable(),
    ...WorkshopClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const { tenantId } = business;
    const caller = await callerOf({ business, user: ctx.user });
    const range = resolveDates(input, caller.today);
    const result = await queryPieceRecords({
      business,
      tenantId,
      employeeId: await employeeFilter({ business, caller, employee: input.employee }),
      processIds: await processFilter({ business, tenantId, process: input.process }),
      orderId: await orderFilter({ business, tenantId, order: input.order }),
      dates: range,
      groupBy: input.group_by,
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      kind: "result",
      structured: {
        records: result.items,
        totals: result.totals,
        ...(result.groups ? { groups: result.groups } : {}),
        range,
        scope: caller.seesAll ? ("workshop" as const) : ("own" as const),
        next_cursor: result.next_cursor,
        today: caller.today,
        time_zone: caller.timeZone,
      },
    };
  },
});
