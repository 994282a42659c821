import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { revokeGrantsOf } from "../auth/oauth-connections.ts";
import { oauthHelpers, oauthOrigin } from "../auth/oauth-server.ts";
import { issuePasswordLink, passwordLinkUrl } from "../auth/password-links.ts";
import { checkNewPassword } from "../auth/password-policy.ts";
import { hashPassword } from "../auth/passwords.ts";
import {
  createPerson,
  deactivatePerson,
  findPerson,
  listPeople,
  type PersonRow,
  reactivatePerson,
  removeNewPerson,
  updatePerson,
  usernameExists,
  usernameTaken,
} from "../auth/people.ts";
import { checkLinkable, createLinkedEmployee, employeeOptions, linkEmployee } from "../business/employee-links.ts";
import { conflict, forbidden } from "../errors.ts";
import { log } from "../log.ts";
import { mayChangeRoleOf, mayGiveRole, mayManagePerson } from "../permissions.ts";
import type { EmployeeOption, PasswordLinkView, PersonView } from "../shapes.ts";
import type { Role } from "../user-context.ts";
import { CreatePersonSchema, UpdatePersonSchema } from "./people.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/people`: a boss (or the workshop's admin) lists the workshop's people, adds them (with a
 * password, or a one-time link for them to set their own), renames them, changes their role,
 * links them to their employee record, deactivates and reactivates them, and hands them a new
 * set-password link. Nobody gives a role above their own or changes their own role; another
 * workshop's person is 404. People are the directory's; the employee link is the workshop's own
 * (`employees.user_id`), read and written through the workshop's services.
 */
export const peopleRoutes = new Hono<AppEnv>();

peopleRoutes.use(bearerAuth(), requirePermission("people:manage"));

function viewOf(person: PersonRow, employee: EmployeeOption | undefined): PersonView {
  return {
    id: person.id,
    name: person.name,
    username: person.username,
    role: person.role,
    active: person.deactivated_at === null,
    has_password: person.has_password,
    password_link_pending: person.password_link_pending,
    employee_id: employee?.id ?? null,
    employee_name: employee?.name ?? null,
    created_at: person.created_at,
    deactivated_at: person.deactivated_at,
  };
}

/** The person's view with their employee link read from the workshop's side. */
async function viewWithLink(c: Context<AppEnv>, person: PersonRow): Promise<PersonView> {
  const employees = await employeeOptions({ business: c.var.services.business });
  return viewOf(
    person,
    employees.find((e) => e.person_id === person.id),
  );
}

/** A fresh one-time link for a person, at the origin people reach Weft at. */
async function linkFor(c: Context<AppEnv>, person: PersonRow): Promise<PasswordLinkView> {
  const { token, expiresAt } = await issuePasswordLink({
    db: c.var.directory.db,
    tenantId: person.tenant_id,
    userId: person.id,
    createdBy: c.var.user.userId,
  });
  const origin = c.var.config.publicUrl ?? new URL(c.req.url).origin;
  return { url: passwordLinkUrl(origin, token), expires_at: expiresAt };
}

const roleAbove = (role: Role) => forbidden(`You may not give the role '${role}': it is above your own.`);

peopleRoutes.get("/", async (c) => {
  const [people, employees] = await Promise.all([
    listPeople({ db: c.var.directory.db, tenantId: c.var.user.tenantId }),
    employeeOptions({ business: c.var.services.business }),
  ]);
  const byPerson = new Map(employees.filter((e) => e.person_id !== null).map((e) => [e.person_id, e]));
  return c.json({ people: people.map((p) => viewOf(p, byPerson.get(p.id))), employees });
});

peopleRoutes.post("/", validate("json", CreatePersonSchema), async (c) => {
  const body = c.req.valid("json");
  const actor = c.var.user;
  const db = c.var.directory.db;
  const business = c.var.services.business;
  if (!mayGiveRole(actor, body.role)) throw roleAbove(body.role);
  if (body.password !== undefined) checkNewPassword("password", body.password, body.username);
  // Everything that can be refused is checked before anything is written.
  if (body.employee_id !== undefined) await checkLinkable({ business, employeeId: body.employee_id, userId: null });
  if (await usernameExists({ db, username: body.username })) throw usernameTaken(body.username);
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const { name, username, role } = body;
  const person = await createPerson({ db, tenantId: actor.tenantId, name, username, role, passwordHash });
  try {
    if (body.employee_id !== undefined) {
      await linkEmployee({
        business,
        userId: person.id,
        personName: person.name,
        employeeId: body.employee_id,
        by: actor.userId,
      });
    } else if (body.new_employee) {
      await createLinkedEmployee({ business, userId: person.id, name: person.name, by: actor.userId });
    }
  } catch (error) {
    // The link was refused (someone took the employee meanwhile): the person goes too, and nothing stays half-made.
    await removeNewPerson({ db, tenantId: actor.tenantId, id: person.id });
    throw error;
  }
  const link = body.password === undefined ? await linkFor(c, person) : undefined;
  const fresh = await findPerson({ db, tenantId: actor.tenantId, id: person.id });
  return c.json({ person: await viewWithLink(c, fresh), ...(link ? { set_password_link: link } : {}) }, 201);
});

peopleRoutes.patch("/:id", validate("json", UpdatePersonSchema), async (c) => {
  const body = c.req.valid("json");
  const actor = c.var.user;
  const db = c.var.directory.db;
  const business = c.var.services.business;
  const person = await findPerson({ db, tenantId: actor.tenantId, id: c.req.param("id") });
  const target = { userId: person.id, tenantId: person.tenant_id, role: person.role };
  if (!mayManagePerson(actor, target))
    throw forbidden(`You may not change ${person.name}: their role '${person.role}' is above yours.`);
  const changesRole = body.role !== undefined && body.role !== person.role;
  if ((changesRole || body.active === false) && !mayChangeRoleOf(actor, target)) {
    throw forbidden("Nobody changes their own role or deactivates themselves: ask another boss or the workshop's admin.");
  }
  if (body.role !== undefined && !mayGiveRole(actor, body.role)) throw roleAbove(body.role);
  // The employee link first, the one change here that another boss's may race with (409).
  if (body.employee_id !== undefined) {
    await linkEmployee({
      business,
      userId: person.id,
      personName: body.name ?? person.name,
      employeeId: body.employee_id,
      by: actor.userId,
    });
  } else if (body.new_employee) {
    await createLinkedEmployee({ business, userId: person.id, name: body.name ?? person.name, by: actor.userId });
  }
  if (body.name !== undefined || body.role !== undefined) {
    await updatePerson({ db, tenantId: actor.tenantId, id: person.id, name: body.name, role: body.role });
  }
  if (body.active === false && person.deactivated_at === null) {
    const { endedConnections } = await deactivatePerson({ db, tenantId: actor.tenantId, id: person.id });
    await revokeProviderGrants(c, person.id, endedConnections);
  } else if (body.active === true && person.deactivated_at !== null) {
    await reactivatePerson({ db, tenantId: actor.tenantId, id: person.id });
  }
  const fresh = await findPerson({ db, tenantId: actor.tenantId, id: person.id });
  return c.json({ person: await viewWithLink(c, fresh) });
});

peopleRoutes.post("/:id/reset-password", async (c) => {
  const actor = c.var.user;
  const person = await findPerson({ db: c.var.directory.db, tenantId: actor.tenantId, id: c.req.param("id") });
  if (!mayManagePerson(actor, { userId: person.id, tenantId: person.tenant_id, role: person.role })) {
    throw forbidden(`You may not reset ${person.name}'s password: their role '${person.role}' is above yours.`);
  }
  if (person.deactivated_at !== null) throw conflict(`${person.name} is deactivated: turn them on again first.`);
  if (person.username === null) throw conflict(`${person.name} has no username to sign in with, only API keys.`);
  return c.json({ set_password_link: await linkFor(c, person) });
});

/**
 * The ended connections' grants and tokens, revoked in the OAuth provider's KV as well. The D1
 * revocation already refuses their next request, so a failure here is logged, not answered.
 */
async function revokeProviderGrants(c: Context<AppEnv>, userId: string, connectionIds: string[]): Promise<void> {
  const origin = oauthOrigin(c.req.raw, c.var.config);
  if (!origin || connectionIds.length === 0) return;
  try {
    await revokeGrantsOf({ oauth: oauthHelpers(origin, c.env), userId, connectionIds });
  } catch (error) {
    log("warn", "grant_revocation_failed", { request_id: c.var.requestId, user_id: userId, error });
  }
}
