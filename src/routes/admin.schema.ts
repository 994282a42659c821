import { z } from "zod";
import { NewUsernameSchema } from "../auth/usernames.ts";
import { printableName } from "../validation.ts";

/** A database binding a workshop may live on: the primary `DB` or a `SHARD_<n>`. */
const ShardName = z.string().regex(/^(DB|SHARD_[0-9]{1,4})$/, "a shard is DB or SHARD_<n>");

/** `GET /api/admin/workshops`: a page of the deployment's workshops. */
export const ListWorkshopsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Workshops per page (1-200)."),
  cursor: z.string().max(400).optional().describe("next_cursor from the previous page."),
});

/** `POST /api/admin/invites`: a one-time invite code. */
export const CreateInviteSchema = z.strictObject({
  note: z
    .string()
    .superRefine(printableName)
    .trim()
    .max(200)
    .default("")
    .describe("Whom it is for, to recognise it in the list, e.g. 'Wang, Jinxiu garments'."),
  days: z.number().int().min(1).max(30).default(7).describe("How many days the code works (1-30)."),
  shard: ShardName.optional().describe("The shard the workshop is placed on; left out, the one holding the least data."),
});

/** `POST /api/admin/workshops/:id/move`: one step of moving a workshop to another shard. */
export const MoveSchema = z.strictObject({
  to: ShardName.describe("The shard to move the workshop to, e.g. SHARD_2."),
});

/** `POST /api/admin/workshops`: a workshop the operator creates, with its first person, who gets a one-time link. */
export const CreateWorkshopSchema = z.strictObject({
  workshop_name: z.string().superRefine(printableName).trim().min(1).max(100).describe("The workshop's name, e.g. 锦绣制衣."),
  name: z.string().superRefine(printableName).trim().min(1).max(100).describe("Its first person's name, e.g. 王老板."),
  username: NewUsernameSchema,
  role: z
    .enum(["boss", "admin"])
    .default("boss")
    .describe(
      "boss (as a sign-up makes), or admin (also manages others' API keys, uploads decision trees, may delete the workshop).",
    ),
  shard: ShardName.optional().describe("The shard the workshop is placed on; left out, the one holding the least data."),
});

/** `POST /api/admin/workshops/:id/reindex`: one step of rebuilding a workshop's keyword index and vectors. */
export const ReindexSchema = z.strictObject({
  after: z.number().int().min(0).nullable().default(null).describe("`after` from the previous step's answer; null to start."),
});

/** `POST /api/admin/secrets/reseal`: one step of sealing every stored secret with the current key. */
export const ResealSchema = z.strictObject({
  cursor: z.string().max(200).nullable().default(null).describe("`next_cursor` from the previous step's answer; null to start."),
});
