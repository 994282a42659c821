import { z } from "zod";
import { styleFilter } from "../business/filters.ts";
import { listProcesses } from "../business/processes.ts";
import { callerOf } from "../business/workshop.ts";
import { AppliedSchema, ClockSchema, count, filterWords, money } from "./applied.ts";
import { MoneySchema, nameField, pageFields, READ_ONLY } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

const FIELD_WORDS = pick("style", "name_contains");

/** Processes (工序) and their current unit prices. */
export const queryProcessesTool = defineTool({
  name: "query_processes",
  words: {
    title: said("查工序和单价", "Look up processes and prices"),
    icon: "records",
    fields: {
      ...FIELD_WORDS,
      include_inactive: said("含停用", "include disabled"),
      with_history: said("附改价记录", "with price history"),
    },
    results: {
      ...pick("name", "style", "unit_price", "active", "totals"),
      processes: said("道数", "processes"),
      next_price: said("下次改价", "next price"),
      price_history: said("改价记录", "price history"),
    },
    lists: { processes: said("工序", "processes") },
    offer: said("查工序和单价（例如：“上领子的单价”）", 'processes and unit prices ("list the processes")'),
  },
  description:
    "The workshop's processes (工序) per style (款式) with today's unit price per piece (单价) and any set to come " +
    "(next_price). Disabled (停用) ones only with include_inactive.",
  inputSchema: z.object({
    style: nameField("Code (A01) or name (男式衬衫).").optional(),
    name_contains: z.string().trim().min(1).max(50).optional().describe("Part of the name (领子)."),
    include_inactive: z.boolean().default(false).describe("Disabled ones too."),
    with_history: z.boolean().default(false).describe("改价记录 too."),
    ...pageFields,
  }),
  outputSchema: z.object({
    ...AppliedSchema,
    totals: z.object({ processes: z.number().int() }),
    processes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        style: z.object({ code: z.string(), name: z.string() }),
        unit_price: MoneySchema,
        active: z.boolean(),
        next_price: z.object({ unit_price: MoneySchema, from: z.string() }).optional(),
        price_history: z
          .array(z.object({ unit_price: MoneySchema, from: z.string().nullable(), set_at: z.string(), replaced: z.boolean() }))
          .optional()
          .describe("Oldest first; from null: its first price."),
      }),
    ),
    next_cursor: z.string().nullable(),
    ...ClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const { tenantId } = business;
    const caller = await callerOf({ business, user: ctx.user });
    const style = await styleFilter({ business, tenantId, style: input.style });
    const result = await listProcesses({
      business,
      tenantId,
      today: caller.today,
      styleId: style?.ids[0],
      nameContains: input.name_contains,
      includeInactive: input.include_inactive,
      withHistory: input.with_history,
      limit: input.limit,
      cursor: input.cursor,
    });
    const filters: Record<string, string> = {};
    if (style) filters.style = style.label;
    if (input.name_contains) filters.name_contains = input.name_contains;
    const assumptions = [
      ...(style?.readFrom ? [`把“${style.readFrom}”当作 ${style.label}`] : []),
      ...(input.include_inactive ? [] : ["停用的工序没有列出"]),
      ...(input.with_history && result.total > 1
        ? ["几道工序的改价记录没有写在这句话里；问一道工序的，例如“上领子的改价记录”"]
        : []),
    ];
    const [first] = result.items;
    const next = first?.next_price ? `${first.next_price.from} 起 ${money(first.next_price.unit_price.cents)}/件。` : "";
    // One process's prices over time, when asked: each from its day, the first "最初".
    const history = first?.price_history
      ?.map((h) => `${h.from ? `${h.from} 起` : "最初"} ${money(h.unit_price.cents)}${h.replaced ? "（当天被替换）" : ""}`)
      .join("；");
    const one =
      result.total === 1 && first
        ? `${first.name}（${first.style.code}）${money(first.unit_price.cents)}/件。${next}${history ? `改价记录：${history}。` : ""}`
        : "";
    const summary = `${filterWords(filters, FIELD_WORDS) || "全部款式"}，当前单价（${caller.today}）：共 ${count(result.total)} 道工序。${one}`;
    const structured = {
      summary,
      period: { name: "current" as const, from: caller.today, to: caller.today, in_progress: true },
      filters,
      assumptions,
      totals: { processes: result.total },
      processes: result.items,
      next_cursor: result.next_cursor,
      today: caller.today,
      time_zone: caller.timeZone,
    };
    return { kind: "result", structured, text: summary };
  },
});
