import { z } from "zod";
import { holdAction } from "../actions/actions.ts";
import { preparePieceRecord } from "../business/prepare.ts";
import { dateField, nameField } from "./business-fields.ts";
import { defineTool } from "./tool.ts";

/** First step of recording pieces: checks and previews, writes nothing. */
export const preparePieceRecordTool = defineTool({
  name: "prepare_piece_record",
  title: "Prepare a piece record (needs confirmation)",
  description:
    "Prepare recording pieces (登记计件), e.g. '张三今天做了50件领子'. Nothing is saved: it checks the employee, process " +
    "and order in this workshop and returns an action_id with a preview (员工/工序/数量/订单/单价/金额). Show the " +
    "preview to the user and ask them to confirm; only after they clearly say yes call confirm_action with the " +
    "action_id. Never confirm on your own initiative. If the answer lists ambiguities (several employees, processes or " +
    "open orders match), ask the user to choose and call prepare_piece_record again with the chosen id; do not " +
    "confirm an action that has ambiguities. Staff record only for themselves (leave employee out); a boss names " +
    "the employee.",
  inputSchema: z.object({
    employee: nameField("Whose pieces: name, 工号 or id. Required for a boss; staff leave it out.").optional(),
    process: nameField("The process (工序): name (领子 finds 上领子 when it is the only match) or id."),
    quantity: z.number().int().min(1).max(10_000).describe("Pieces done, a whole number from 1 to 10000."),
    order: nameField("The order: number (2026-015) or id. Leave out to use the only open order with this process.").optional(),
    work_date: dateField("The day the work was done, YYYY-MM-DD; defaults to today in the workshop.").optional(),
  }),
  prepares: "piece_record",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const prepared = await preparePieceRecord({ business: ctx.services.business, user: ctx.user, input });
    const view = await holdAction({ actions: ctx.services.actions, user: ctx.user, prepared });
    return { kind: "pending_action", action: view };
  },
});
