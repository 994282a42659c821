import { z } from "zod";
import { PROCESS_CHANGES, prepareProcess } from "../business/catalog-changes.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { nameField, WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Adds or changes a style or a process (boss): checks and previews, writes nothing. */
export const prepareProcessTool = defineTool({
  name: "prepare_process",
  words: {
    title: said("准备款式或工序变更", "Prepare a style or process change"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: {
      ...pick("style", "process", "name", "unit_price"),
      change: said("变更", "change"),
      code: said("款号", "style code"),
      add: said("新增工序", "add a process"),
      edit: said("改工序名", "rename a process"),
      disable: said("停用", "disable"),
      enable: said("启用", "enable"),
      add_style: said("新增款式", "add a style"),
      edit_style: said("修改款式", "change a style"),
    },
    results: { ...pick("name", "style", "active"), code: said("款号", "style code"), sort_order: said("顺序", "order") },
    offer: said("管款式和工序（例如：“A01 加一道工序锁边，两毛五一件”）", 'styles and processes ("add a process to A01")'),
  },
  description:
    "Prepare a change to styles (款式) or processes (工序), boss only: add_style (code, name), edit_style, add (style, " +
    "name, unit_price), edit (rename), disable, enable.",
  inputSchema: z.object({
    change: z.enum(PROCESS_CHANGES).describe("What to do."),
    style: nameField("款式: code, name or id.").optional(),
    process: nameField("Name or id.").optional(),
    name: z.string().max(50).optional().describe("New name."),
    code: z.string().max(20).optional().describe("款号."),
    unit_price: z.number().min(0).max(100_000).optional().describe("元/件."),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: "process",
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareProcess({ business: ctx.services.business, user: ctx.user, input })),
});
