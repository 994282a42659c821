import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { countPasswordLinkUse } from "../auth/attempt-limits.ts";
import { clientAddress } from "../auth/client-address.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { refuseForeignOrigin } from "../auth/origin.ts";
import { changeOwnPassword } from "../auth/password-change.ts";
import { readPasswordLink, usePasswordLink } from "../auth/password-links.ts";
import { checkNewPassword } from "../auth/password-policy.ts";
import { hashPassword } from "../auth/passwords.ts";
import { clearSessionCookie, sessionToken, setSessionCookie } from "../auth/session-cookie.ts";
import { signInWithPassword } from "../auth/sign-in.ts";
import { endWebSession, findWebUser } from "../auth/web-sessions.ts";
import { AppError, forbidden, notFound, unauthorized } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import { ChangePasswordSchema, LoginSchema, PasswordLinkSchema, SetPasswordSchema } from "./auth.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/auth`: password sign-in for people in the browser, who they are, sign-out, changing one's
 * own password, and setting it through a one-time link a boss handed out.
 */
export const authRoutes = new Hono<AppEnv>();

authRoutes.use(
  bodyLimit({
    maxSize: 4096,
    onError: () => {
      throw new AppError("payload_too_large", "Sign-in requests are limited to 4 KiB.");
    },
  }),
);

// A login form posted from another site could sign the victim into the attacker's account.
authRoutes.use(refuseForeignOrigin("Sign-in"));

const addressOf = (c: Context<AppEnv>) =>
  clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader });

authRoutes.post("/login", validate("json", LoginSchema), async (c) => {
  const { username, password } = c.req.valid("json");
  const { user, token } = await signInWithPassword({ db: c.var.directory.db, username, password, address: addressOf(c) });
  setSessionCookie(c, token);
  return c.json({ user });
});

authRoutes.post("/logout", async (c) => {
  const token = sessionToken(c);
  if (token) await endWebSession({ db: c.var.directory.db, token });
  clearSessionCookie(c);
  return c.json({ signed_out: true });
});

authRoutes.get("/me", bearerAuth(), async (c) => {
  const user = await findWebUser({ db: c.var.directory.db, userId: c.var.user.userId, tenantId: c.var.user.tenantId });
  if (!user) throw unauthorized("Not signed in.");
  return c.json({ user });
});

// A password is a person's, typed in the browser: never changed with an API key or a connected
// app's token, which would let whoever holds one take the account over.
authRoutes.post("/password", bearerAuth(), validate("json", ChangePasswordSchema), async (c) => {
  const token = sessionToken(c);
  if (c.var.credential.kind !== "session" || !token) {
    throw forbidden("A password is changed by its person signed in to Weft in the browser, not with an API key.");
  }
  const { current_password, new_password } = c.req.valid("json");
  const { endedSessions } = await changeOwnPassword({
    db: c.var.directory.db,
    user: c.var.user,
    currentPassword: current_password,
    newPassword: new_password,
    keepToken: token,
    address: addressOf(c),
  });
  return c.json({ changed: true, ended_sessions: endedSessions });
});

const unknownLink = () =>
  notFound("This link is unknown, used or expired (links work once, for 24 hours). Ask your boss for a new one.");

authRoutes.post("/set-password/check", validate("json", PasswordLinkSchema), async (c) => {
  const db = c.var.directory.db;
  const tokenHash = await sha256Hex(c.req.valid("json").token);
  const settle = await countPasswordLinkUse({ db, address: addressOf(c), tokenHash });
  const holder = await readPasswordLink({ db, tokenHash });
  if (!holder) throw unknownLink();
  await settle();
  return c.json({
    name: holder.name,
    username: holder.username,
    workshop_name: holder.tenant_name,
    expires_at: holder.expires_at,
  });
});

authRoutes.post("/set-password", validate("json", SetPasswordSchema), async (c) => {
  const db = c.var.directory.db;
  const { token, password } = c.req.valid("json");
  const tokenHash = await sha256Hex(token);
  const settle = await countPasswordLinkUse({ db, address: addressOf(c), tokenHash });
  const holder = await readPasswordLink({ db, tokenHash });
  if (!holder) throw unknownLink();
  checkNewPassword("password", password, holder.username);
  if (!(await usePasswordLink({ db, tokenHash, passwordHash: await hashPassword(password) }))) throw unknownLink();
  await settle();
  return c.json({ password_set: true, username: holder.username });
});
