// What Settings → 车间资料 works out before it asks the server: where an order may move next, and a
// refused change said in the person's language. It imports nothing of the browser's, so the
// Workers tests can check it against the server's own rules.
import type { OrderView, PendingAction } from "../shapes.ts";
import { ApiError } from "./api-error.ts";

/** Which part of Settings → 车间资料 a change came from: its check is shown there, beside the form. */
export type Part = "workshop" | "employees" | "prices" | "orders" | "adjustments" | "import";

/** A change the section prepares: `prepare_business_change`'s input (src/tools/prepare-business-change.ts). */
export type BusinessChangeBody = { change: string } & Record<string, string | number | undefined>;

/** Prepares a change and shows its check; resolves to whether the server took it for checking. */
export type Propose = (part: Part, change: BusinessChangeBody, version?: number) => Promise<boolean>;

/**
 * Shows the check of a pending action prepared other than by a change's form (an import's upload):
 * `prepare` answers it, or null when there is nothing to write; resolves to whether it was not refused.
 */
export type Hold = (part: Part, prepare: () => Promise<PendingAction | null>) => Promise<boolean>;

type OrderStatus = OrderView["status"];

/** The statuses an order may move to from each: the server's ORDER_STEPS (src/business/order-changes.ts). */
export const ORDER_NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ["in_production", "cancelled"],
  in_production: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

/** The words a refusal is said in (business-words.ts). */
export interface RefusalWords {
  changedMeanwhile: (message: string) => string;
  invalid: (message: string) => string;
  notAllowed: string;
  unreachable: string;
}

/**
 * A refused prepare or confirm in the person's language: a record changed since the list was read
 * (409), input the server would not take (400/422, with its own message naming the field), a role
 * that may not; anything else as Weft's own message.
 */
export function refusalText(error: unknown, words: RefusalWords): string {
  if (!(error instanceof ApiError)) return words.unreachable;
  if (error.code === "conflict" || error.code === "action_stale") return words.changedMeanwhile(error.message);
  if (error.status === 400 || error.status === 422) return words.invalid(error.message);
  if (error.status === 403) return words.notAllowed;
  return error.message;
}

/** A price in 元 as a person types it (九毛 is 0.9): a number from 0 to 100,000 with at most two decimals, else null. */
export function yuanOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value <= 100_000 ? value : null;
}
