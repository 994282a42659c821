import { type Role, roleAtLeast, type UserContext } from "./user-context.ts";

/**
 * Every role rule Weft has, in one place. Routes ask through `requirePermission` (or
 * `requireRole`), the tool registry through `mayUseTool`, and the key and tree routes through the
 * owner checks below; `test/auth/role-matrix.test.ts` pins each route and tool for each role.
 */
export const LEAST_ROLE = {
  /** Read the workshop's knowledge bases and documents, search them, consult. */
  "knowledge:read": "staff",
  /** Create, rename and delete knowledge bases; upload, replace and delete documents. */
  "knowledge:write": "boss",
  /** List, create and revoke one's own API keys. */
  "keys:own": "staff",
  /** Create and revoke keys of other people in the workshop (at or below one's own role). */
  "keys:others": "admin",
  /** Upload and delete the workshop's own decision trees. */
  "trees:write": "admin",
  /** Close the workshop, deleting everything it holds. */
  "workshop:delete": "admin",
  /**
   * See every employee's piece records, pay and details, and record pieces for anyone; below it,
   * a person sees and records only their own (orders and processes everyone sees).
   */
  "business:workshop": "boss",
  /** Prepare new orders. */
  "orders:write": "boss",
  /**
   * Set up and change the workshop's own business data: employees, styles, processes and their
   * prices, orders' status and details, 补贴 and 扣款, the workshop's name and time zone, and
   * imports of employees and price lists (each a write its person confirms).
   */
  "business:manage": "boss",
  /** Read the log of executed business writes. */
  "audit:read": "boss",
  /** Register, change, test, sign in to and delete the workshop's external MCP servers. */
  "servers:manage": "boss",
  /**
   * List the workshop's people; add them, change their name, role and employee record, deactivate
   * and reactivate them, and give them a one-time link to set their password (`mayManagePerson`).
   */
  "people:manage": "boss",
  /** Read the workshop's ratings of chat answers (the recent 👎 with question, answer and sources). */
  "feedback:read": "boss",
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof LEAST_ROLE;

/** Whether `role` covers `required` (admin covers boss, boss covers staff): the one role comparison. */
export function roleAllows(role: Role, required: Role): boolean {
  return roleAtLeast(role, required);
}

/** Whether a caller's role grants `permission`. */
export function can(user: Pick<UserContext, "role">, permission: Permission): boolean {
  return roleAllows(user.role, LEAST_ROLE[permission]);
}

/**
 * Whether a caller may see and call a tool whose least role is `minRole` (everyone when absent);
 * a read-only caller only tools marked `readOnlyHint`.
 */
export function mayUseTool(
  user: Pick<UserContext, "role" | "readOnly">,
  minRole: Role | undefined,
  annotations: { readOnlyHint?: boolean } = {},
): boolean {
  if (user.readOnly && annotations.readOnlyHint !== true) return false;
  return minRole === undefined || roleAllows(user.role, minRole);
}

/** The owner of a credential: who it signs in as. */
export interface KeyOwner {
  userId: string;
  tenantId: string;
  role: Role;
}

/**
 * Whether `actor` may create or revoke a key that signs in as `owner`. Everyone manages their own
 * keys; only an admin manages other people's, and only in their own workshop and at or below their
 * own role. So a boss cannot mint a staff member's key (and read their private consultations),
 * and nobody obtains a key for a role above their own.
 */
export function mayManageKeyOf(actor: UserContext, owner: KeyOwner): boolean {
  if (owner.tenantId !== actor.tenantId) return false;
  if (!roleAllows(actor.role, owner.role)) return false;
  if (owner.userId === actor.userId) return can(actor, "keys:own");
  return can(actor, "keys:others");
}

/**
 * Whether `actor` may manage an external MCP server of workshop `tenantId`: the rule of the
 * `/api/mcp/servers` routes (which scope every lookup to the caller's workshop), for the one place
 * that meets a server before knowing who asks, the OAuth callback.
 */
export function mayManageServerOf(actor: UserContext, tenantId: string): boolean {
  return actor.tenantId === tenantId && can(actor, "servers:manage");
}

/** A person of a workshop as the people routes meet them. */
export interface PersonRef {
  userId: string;
  tenantId: string;
  role: Role;
}

/**
 * Whether `actor` may manage `person` (rename, deactivate, reset their password, change their
 * role or employee record): someone of their own workshop whose role is at most theirs, so a boss
 * manages staff and bosses but never an admin. Changing one's own role or deactivating oneself is
 * refused apart (`mayChangeRoleOf`), so nobody locks their workshop out by mistake.
 */
export function mayManagePerson(actor: UserContext, person: PersonRef): boolean {
  return person.tenantId === actor.tenantId && can(actor, "people:manage") && roleAllows(actor.role, person.role);
}

/** Whether `actor` may give someone `role`: never a role above their own, so a boss gives staff and boss, never admin. */
export function mayGiveRole(actor: UserContext, role: Role): boolean {
  return can(actor, "people:manage") && roleAllows(actor.role, role);
}

/** Whether `actor` may change `person`'s role or whether they are active: never their own. */
export function mayChangeRoleOf(actor: UserContext, person: PersonRef): boolean {
  return mayManagePerson(actor, person) && person.userId !== actor.userId;
}

/** Whether `actor` sees every key of the workshop in lists, rather than only their own. */
export function mayListWorkshopKeys(actor: UserContext): boolean {
  return can(actor, "keys:others");
}
