import { z } from "zod";
import { PasswordField } from "../auth/password-policy.ts";
import { NewUsernameSchema } from "../auth/usernames.ts";
import { ROLES } from "../user-context.ts";
import { printableName } from "../validation.ts";

const PersonName = z
  .string()
  .superRefine(printableName)
  .trim()
  .min(1)
  .max(100)
  .describe("The person's name as the workshop says it, e.g. 李娟.");
const Role = z.enum(ROLES).describe("staff, boss or admin; never above the caller's own role.");
const EmployeeId = z.string().min(1).max(200).describe("The employee record whose piece records and pay are this person's.");
const NewEmployee = z
  .literal(true)
  .describe("Make a new employee record with the person's name and the next employee number, linked to them.");

/** `POST /api/people`: a new person of the caller's workshop. */
export const CreatePersonSchema = z
  .strictObject({
    name: PersonName,
    username: NewUsernameSchema,
    role: Role,
    password: PasswordField.optional().describe(
      "Their first password (at least 8 characters, not a common one). Left out, the answer carries a one-time link for them to set their own.",
    ),
    employee_id: EmployeeId.optional(),
    new_employee: NewEmployee.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.employee_id !== undefined && body.new_employee) {
      ctx.addIssue({ code: "custom", path: ["new_employee"], message: "give employee_id or new_employee, not both" });
    }
  });
export type CreatePerson = z.infer<typeof CreatePersonSchema>;

/** `PATCH /api/people/:id`: what changes; at least one field. */
export const UpdatePersonSchema = z
  .strictObject({
    name: PersonName.optional(),
    role: Role.optional(),
    active: z.boolean().optional().describe("false deactivates them (every credential ends at once); true undoes it."),
    employee_id: EmployeeId.nullable().optional().describe("Link them to this employee record; null unlinks them."),
    new_employee: NewEmployee.optional(),
  })
  .superRefine((body, ctx) => {
    if (Object.values(body).every((value) => value === undefined)) {
      ctx.addIssue({ code: "custom", message: "give at least one of name, role, active, employee_id, new_employee" });
    }
    if (body.employee_id !== undefined && body.new_employee) {
      ctx.addIssue({ code: "custom", path: ["new_employee"], message: "give employee_id or new_employee, not both" });
    }
  });
export type UpdatePerson = z.infer<typeof UpdatePersonSchema>;
