import { z } from "zod";
import { prepareProcessPrice } from "../business/price-changes.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { dateField, nameField, WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Changes a process's unit price from a day on (boss): checks and previews, writes nothing. */
export const prepareProcessPriceTool = defineTool({
  name: "prepare_process_price",
  words: {
    title: said("准备改单价", "Prepare a price change"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: { ...pick("process", "style", "unit_price"), effective_from: said("生效日期", "from") },
    results: { ...pick("process", "unit_price"), effective_from: said("生效日期", "from") },
    offer: said("改单价（例如：“上领子改成九毛，从下个月一号起”）", 'unit prices ("collar 0.90 from the 1st of next month")'),
  },
  description:
    "Prepare a process's new unit price (单价), boss only, from effective_from (today if not given; never past): " +
    "records entered before keep theirs.",
  inputSchema: z.object({
    process: nameField("Name or id (领子 finds 上领子)."),
    style: nameField("款式, when several styles have it.").optional(),
    unit_price: z.number().min(0).max(100_000).describe("元 per piece (九毛 = 0.9)."),
    effective_from: dateField("YYYY-MM-DD.").optional(),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: "process_price",
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareProcessPrice({ business: ctx.services.business, user: ctx.user, input })),
});
