import type { Ambiguity, ConfirmationPath, PendingAction, PreviewField } from "../shapes.ts";
import type { Role, UserContext } from "../user-context.ts";

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
  /**
   * The least role the write needs of its person (a boss's piece record for someone else, a new
   * order: `boss`), checked again when they confirm: someone demoted since cannot confirm it.
   */
  needs: Role;
}

/**
 * How a face says a write was said yes to: the path, the credential (an API key's visible prefix,
 * an OAuth app's name; `null` in a browser session), and the exact text that path showed of the
 * action, in the words and language shown, which the audit keeps with its digest.
 */
export interface Confirmation {
  via: ConfirmationPath;
  credential: string | null;
  shown(action: PendingAction): string;
}

/** A confirmation once the person has been checked again: what an executor's audit entry records. */
export interface Approval {
  via: ConfirmationPath;
  credential: string | null;
  /** The confirming person's name as the directory has it now. */
  personName: string;
  shownText: string;
  /** SHA-256 of `shownText` (UTF-8), in hex. */
  shownSha256: string;
}

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
   * For a kind whose write is recognisable by its action id (the written row carries it, unique,
   * so running the write again writes nothing twice): what this action wrote, in `execute`'s
   * result shape, or `null` if it wrote nothing. A confirm that finds a confirm of the same action
   * still holding it asks this instead of waiting, and a confirm left by a stopped Worker is
   * settled as soon as anyone asks. Absent for a call elsewhere that may have happened unseen (an
   * external tool's): such a confirm, interrupted, is settled as failed.
   */
  written?(input: { actionId: string; owner: ActionOwner }): Promise<Record<string, unknown> | null>;
  /**
   * Runs the write; its audit entry (in the same transaction) records the `approval` and the
   * action's `summary`, so the audit can say what was written in the words its person confirmed.
   */
  execute(input: {
    actionId: string;
    owner: ActionOwner;
    write: W;
    summary: string;
    now: Date;
    approval: Approval;
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
 * The audit columns an approval fills, in the order of `auditApprovalValues`, for an executor's
 * `INSERT INTO business_audit (…, ${AUDIT_APPROVAL_COLUMNS})`.
 */
export const AUDIT_APPROVAL_COLUMNS = "confirmed_via, confirmed_key, credential, summary, user_name, shown_text, shown_sha256";

/** The values of `AUDIT_APPROVAL_COLUMNS` for an approval of a write summarised as `summary`. */
export function auditApprovalValues(approval: Approval, summary: string): (string | null)[] {
  const keyPrefix = approval.via === "agent_key" ? approval.credential : null;
  return [approval.via, keyPrefix, approval.credential, summary, approval.personName, approval.shownText, approval.shownSha256];
}

/** `count` SQL placeholders numbered from `first`: `?4, ?5, ?6`. */
export function placeholders(first: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `?${first + i}`).join(", ");
}
