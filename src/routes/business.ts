import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { holdAction } from "../actions/actions.ts";
import type { Prepared } from "../actions/types.ts";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { adjustmentViews, employeeViews, orderViews, styleViews } from "../business/setup-reads.ts";
import { callerOf } from "../business/workshop.ts";
import { workshopSettings } from "../business/workshop-changes.ts";
import { AppError } from "../errors.ts";
import type { WorkshopView } from "../shapes.ts";
import { prepareBusinessChange } from "../tools/prepare-business-change.ts";
import { BusinessChangeSchema, MonthQuerySchema, OrdersQuerySchema } from "./business.schema.ts";
import { businessImportRoutes } from "./business-import.ts";
import { ifMatchVersions } from "./if-match.ts";
import { validate } from "./validate.ts";

/**
 * `/api/business`: the workshop's own business data as Settings → 车间资料 reads and changes it
 * (a boss, or the workshop's admin). `GET` lists employees, styles with their processes and
 * prices (and each price's history), orders, a month's 补贴 and 扣款, and the workshop's settings,
 * each record with the `version` a change is sent against. `POST /changes` prepares a
 * change (its body is `prepare_business_change`'s input) and answers it as a pending action, written once
 * its person says yes (`POST /api/actions/:id/confirm`, `{ "via": "settings" }` from the settings
 * page); `If-Match: "<version>"` refuses it at once (409, the record as it is now) when the record
 * changed since it was read. Imports are under `/import` (business-import.ts).
 */
export const businessRoutes = new Hono<AppEnv>();

businessRoutes.use(bearerAuth(), requirePermission("business:manage"));

businessRoutes.get("/employees", async (c) => c.json({ employees: await employeeViews(c.var.services.business) }));

businessRoutes.get("/styles", async (c) => {
  const business = c.var.services.business;
  const caller = await callerOf({ business, user: c.var.user });
  const styles = await styleViews(business, caller.today);
  // Who set each price, as the directory names them now (people are the directory's).
  const ids = [...new Set(styles.flatMap((s) => s.processes.flatMap((p) => p.prices.flatMap((price) => price.set_by ?? []))))];
  const names = ids.length > 0 ? await c.var.services.actions.people.names(ids) : new Map<string, string>();
  for (const price of styles.flatMap((s) => s.processes.flatMap((p) => p.prices))) {
    if (price.set_by !== null) price.set_by = names.get(price.set_by) ?? null;
  }
  return c.json({ styles, today: caller.today });
});

businessRoutes.get("/orders", validate("query", OrdersQuerySchema), async (c) =>
  c.json({ orders: await orderViews(c.var.services.business, { all: c.req.valid("query").status === "all" }) }),
);

businessRoutes.get("/adjustments", validate("query", MonthQuerySchema), async (c) => {
  const business = c.var.services.business;
  const month = c.req.valid("query").month ?? (await callerOf({ business, user: c.var.user })).today.slice(0, 7);
  return c.json({ month, adjustments: await adjustmentViews(business, month) });
});

businessRoutes.get("/workshop", async (c) => {
  const business = c.var.services.business;
  const [settings, caller] = await Promise.all([workshopSettings(business), callerOf({ business, user: c.var.user })]);
  return c.json({ ...settings, time_zone: caller.timeZone, today: caller.today } satisfies WorkshopView);
});

/** Holds a prepared change for its person's yes and answers it: 201 with the pending action. */
async function held(c: Context<AppEnv>, prepared: Prepared) {
  const action = await holdAction({ actions: c.var.services.actions, user: c.var.user, prepared });
  return c.json(action, 201);
}

/** What every prepare is given: the workshop's services, the caller, and the versions `If-Match` names. */
function common(c: Context<AppEnv>) {
  return { business: c.var.services.business, user: c.var.user, ifVersion: ifMatchVersions(c.req.header("If-Match")) };
}

businessRoutes.post("/changes", validate("json", BusinessChangeSchema), async (c) =>
  held(c, await prepareBusinessChange({ ...common(c), input: c.req.valid("json") })),
);

businessRoutes.use("/import/*", bodyLimit({ maxSize: 11 * 1024 * 1024, onError: () => tooLarge() }));
businessRoutes.route("/import", businessImportRoutes);

function tooLarge(): never {
  throw new AppError("payload_too_large", "An import is limited to 10 MiB; split the file.");
}
