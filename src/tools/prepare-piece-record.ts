import { z } from "zod";
import { holdAction } from "../actions/actions.ts";
import { preparePieceRecord } from "../business/prepare.ts";
import { ActionResultSchema } from "./action-results.ts";
import { dateField, nameField, WRITES } from "./business-fields.ts";
import { preparedInOf } from "./confirm-by.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** First step of recording pieces: checks and previews, writes nothing. */
export const preparePieceRecordTool = defineTool({
  name: "prepare_piece_record",
  words: {
    title: said("准备登记计件", "Prepare a piece record"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: pick("employee", "process", "quantity", "order", "work_date"),
    results: { ...pick("order_no", "employee", "process", "quantity", "work_date"), amount: said("金额（元）", "amount (yuan)") },
    offer: {
      ...said(
        "记计件（例如：“给李娟记上领子200件”，需要你确认后才写入）",
        'recording pieces ("record 200 pieces of collar for Li Juan", confirmed by you before it is written)',
      ),
      own: said(
        "记计件（例如：“我今天上领子80件，帮我登记”，需要你确认后才写入）",
        'recording pieces ("record 80 pieces of collar for me today", confirmed by you before it is written)',
      ),
    },
  },
  description:
    "Prepare recording pieces (登记计件, '张三今天做了50件领子'), writing nothing: a preview, an action_id, next_step " +
    "and tell_user. Ambiguities (several employees, processes or open orders match): ask, then prepare again with " +
    "the chosen id. Staff record their own (no employee).",
  inputSchema: z.object({
    employee: nameField("Name, 工号 or id; a boss must give it.").optional(),
    process: nameField("Name or id (领子 finds 上领子)."),
    quantity: z.number().int().min(1).max(10_000).describe("Pieces done."),
    order: nameField("Number or id; the only open order with this process when left out.").optional(),
    work_date: dateField("YYYY-MM-DD; today when left out.").optional(),
  }),
  outputSchema: ActionResultSchema,
  prepares: "piece_record",
  annotations: WRITES,
  async run(ctx, input) {
    const prepared = await preparePieceRecord({ business: ctx.services.business, user: ctx.user, input });
    const view = await holdAction({
      actions: ctx.services.actions,
      user: ctx.user,
      prepared,
      preparedIn: preparedInOf(ctx.confirming),
    });
    return { kind: "pending_action", action: view };
  },
});
