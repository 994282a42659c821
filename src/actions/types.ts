import type { Ambiguity, ConfirmationPath, PreviewField } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";

export const ACTION_STATUSES = ["pending", "confirmed", "cancelled", "expired", "failed"] as const;

/** Who prepared an action: only they may see, confirm or cancel it. */
export type ActionOwner = Pick<UserContext, "tenantId" | "userId">;

/**
 * What a prepare step produced: the write (of its executor's `kind`) when everything is settled,
 * else `null` and what is still open. `W` is the executor's own shape of the write; the actions
 * domain stores it as it is and hands it back to that executor.
 */
export interface Prepared<W extends object = object> {
  kind: string;
  write: W | null;
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
}

/**
 * How a write was confirmed: by its owner through a card, an elicitation or the confirm page, or
 * by an agent with a key whose owner allowed that (`keyPrefix`, the key's visible prefix).
 */
export type Confirmation = { via: Exclude<ConfirmationPath, "agent_key"> } | { via: "agent_key"; keyPrefix: string };

/** The outcome of executing a write: what was written, or why it may no longer be. */
export type Execution = { ok: true; result: Record<string, unknown> } | { ok: false; message: string };

/**
 * Runs one kind of confirmed write. Domains contribute executors (business: piece records and
 * orders; federation: external tool calls); the wiring registers them, and the actions domain
 * knows a kind only through its executor.
 */
export interface Executor<W extends object = object> {
  kind: string;
  /** What this kind of write is called, for people: the audit, the confirm page. */
  label: { zh: string; en: string };
  /**
   * Whether running it again after a crash cannot write twice (the write is keyed by its action
   * id). A call elsewhere that may have happened is not: its action is settled as failed instead.
   */
  idempotent: boolean;
  /**
   * Runs the write; its audit entry (in the same transaction) records `confirmation` and the
   * action's `summary`, so the audit can say what was written in the words its person confirmed.
   */
  execute(input: {
    actionId: string;
    owner: ActionOwner;
    write: W;
    summary: string;
    now: Date;
    confirmation: Confirmation;
  }): Promise<Execution>;
}

/** Executors by kind; built once by the wiring. */
export type ExecutorRegistry = ReadonlyMap<string, Executor>;

/**
 * The registry of the given executors. A kind registered twice is a wiring mistake, refused at
 * once rather than resolved silently in favour of one.
 */
export function executorRegistry(executors: readonly Executor<never>[]): ExecutorRegistry {
  const registry = new Map<string, Executor>();
  for (const executor of executors) {
    if (registry.has(executor.kind)) throw new Error(`Two executors for the action kind '${executor.kind}'.`);
    registry.set(executor.kind, executor as Executor);
  }
  return registry;
}

/**
 * The audit columns that say how a write was confirmed and what it was: `confirmed_via`,
 * `confirmed_key` and `summary`, in that order.
 */
export function auditConfirmation(
  confirmation: Confirmation,
  summary: string,
): [via: string, keyPrefix: string | null, summary: string] {
  return [confirmation.via, confirmation.via === "agent_key" ? confirmation.keyPrefix : null, summary];
}
