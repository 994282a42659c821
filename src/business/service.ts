import type { WorkshopDb } from "../workshop-db.ts";

/** What the business domain runs on: workshop records and a clock. */
export interface BusinessService extends WorkshopDb {
  /** The current time; "today" and "this month" are read from it in the workshop's time zone. */
  clock: () => Date;
  /**
   * The directory's entry of the workshop, which people see its name by (sign-in, the operator's
   * list): the workshop's own record on its shard is the business domain's, the directory is not.
   */
  directory: {
    /** Sets the workshop's name in the directory (nothing to do where the shard is the directory). */
    setWorkshopName(name: string): Promise<void>;
  };
}
