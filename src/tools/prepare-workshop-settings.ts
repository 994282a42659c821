import { z } from "zod";
import { prepareWorkshopSettings } from "../business/workshop-changes.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { said } from "./words.ts";

/** Renames the workshop or sets its time zone (boss): checks and previews, writes nothing. */
export const prepareWorkshopSettingsTool = defineTool({
  name: "prepare_workshop_settings",
  words: {
    title: said("准备修改工作坊设置", "Prepare workshop settings"),
    icon: "write",
    lists: { preview: said("预览", "preview") },
    fields: { name: said("名称", "name"), time_zone: said("时区", "time zone") },
    results: { name: said("名称", "name"), time_zone: said("时区", "time zone") },
  },
  description: "Prepare renaming the workshop or setting its time zone (IANA), boss only; dates are read in that zone.",
  inputSchema: z.object({
    name: z.string().max(100).optional().describe("New name."),
    time_zone: z.string().max(60).optional().describe("Asia/Shanghai, …"),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: "workshop_settings",
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareWorkshopSettings({ business: ctx.services.business, user: ctx.user, input })),
});
