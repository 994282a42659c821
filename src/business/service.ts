import type { WorkshopDb } from "../workshop-db.ts";

/** What the business domain runs on: workshop records and a clock. */
export interface BusinessService extends WorkshopDb {
  /** The current time; "today" and "this month" are read from it in the workshop's time zone. */
  clock: () => Date;
}
