import { z } from "zod";
import { styleFilter } from "../business/filters.ts";
import { listProcesses } from "../business/processes.ts";
import { nameField, pageFields, READ_ONLY } from "./business-fields.ts";
import { defineTool } from "./tool.ts";

/** Processes (工序) and their current unit prices. */
export const queryProcessesTool = defineTool({
  name: "query_processes",
  title: "List processes and unit prices",
  description:
    "List the workshop's processes (工序) per style (款式) with the current unit price per piece (单价, in cents and " +
    "yuan). Everyone in the workshop may see them. Disabled processes are left out unless include_inactive is true.",
  inputSchema: z.object({
    style: nameField("Only this style: its code (A01) or name (男式衬衫).").optional(),
    name_contains: z.string().trim().min(1).max(50).optional().describe("Only processes whose name contains this text (领子)."),
    include_inactive: z.boolean().default(false).describe("Also list disabled (停用) processes."),
    ...pageFields,
  }),
  outputSchema: z.object({
    processes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        style: z.object({ id: z.string(), code: z.string(), name: z.string() }),
        unit_price_cents: z.number().int(),
        unit_price_yuan: z.string(),
        active: z.boolean(),
      }),
    ),
    total: z.number().int(),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const { tenantId } = business;
    const result = await listProcesses({
      business,
      tenantId,
      styleId: await styleFilter({ business, tenantId, style: input.style }),
      nameContains: input.name_contains,
      includeInactive: input.include_inactive,
      limit: input.limit,
      cursor: input.cursor,
    });
    return { kind: "result", structured: { processes: result.items, total: result.total, next_cursor: result.next_cursor } };
  },
});
