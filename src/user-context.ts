export const ROLES = ["admin", "boss", "staff"] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling. Every domain query is scoped by `tenantId`; faces build it, domains receive it. */
export interface UserContext {
  userId: string;
  tenantId: string;
  role: Role;
  /** A credential allowed only to read (an OAuth grant for `weft:read`): only read-only tools. */
  readOnly?: boolean;
}

/** Whether `role` may act as `required`: admin covers boss, boss covers staff. */
export function roleAtLeast(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(required);
}
