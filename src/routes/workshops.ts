import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { countSignUp } from "../auth/attempt-limits.ts";
import { clientAddress } from "../auth/client-address.ts";
import { inviteCodeHash, inviteValid } from "../auth/invites.ts";
import { refuseForeignOrigin } from "../auth/origin.ts";
import { checkNewPassword } from "../auth/password-policy.ts";
import { hashPassword } from "../auth/passwords.ts";
import { usernameExists, usernameTaken } from "../auth/people.ts";
import { setSessionCookie } from "../auth/session-cookie.ts";
import { createWebSession } from "../auth/web-sessions.ts";
import { createWorkshop } from "../auth/workshops.ts";
import { AppError, badRequest, forbidden } from "../errors.ts";
import { validate } from "./validate.ts";
import { SignUpSchema } from "./workshops.schema.ts";

/**
 * `/api/workshops`: signing a new workshop up, with its boss, who is signed in at once. Whether
 * anyone may is the deployment's choice, `SIGNUP`: `open`, `invite` (a one-time code from the
 * operator) or `closed`; `GET /api/workshops/signup` says which, for the sign-up page.
 */
export const workshopSignUpRoutes = new Hono<AppEnv>();

workshopSignUpRoutes.use(
  bodyLimit({
    maxSize: 4096,
    onError: () => {
      throw new AppError("payload_too_large", "Sign-up requests are limited to 4 KiB.");
    },
  }),
);
workshopSignUpRoutes.use(refuseForeignOrigin("Sign-up"));

workshopSignUpRoutes.get("/signup", (c) => c.json({ signup: c.var.config.signup }));

workshopSignUpRoutes.post("/", validate("json", SignUpSchema), async (c) => {
  const mode = c.var.config.signup;
  if (mode === "closed") throw forbidden("This Weft does not sign new workshops up. Ask its operator.");
  const body = c.req.valid("json");
  checkNewPassword("password", body.password, body.username);
  if (mode === "invite" && !body.invite_code) {
    throw badRequest(
      "Invalid request body: invite_code: this Weft signs workshops up by invitation; give the code its operator sent you",
    );
  }
  const db = c.var.directory.db;
  await countSignUp({
    db,
    address: clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader }),
  });
  // Refused early, before the password's hashing; the workshop's creation checks both again in its batch.
  if (await usernameExists({ db, username: body.username })) throw usernameTaken(body.username);
  const codeHash = mode === "invite" && body.invite_code ? await inviteCodeHash(body.invite_code) : undefined;
  if (codeHash !== undefined && !(await inviteValid({ db, codeHash }))) {
    throw forbidden("This invite code is unknown, used, revoked or expired. Ask the operator of this Weft for a new one.");
  }
  const { user } = await createWorkshop({
    env: c.env,
    config: c.var.config,
    db,
    workshopName: body.workshop_name,
    boss: { name: body.name, username: body.username, passwordHash: await hashPassword(body.password) },
    inviteCodeHash: codeHash,
  });
  setSessionCookie(c, await createWebSession({ db, user }));
  return c.json({ user, workshop: { id: user.tenant_id, name: user.tenant_name } }, 201);
});
