import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { clientAddress } from "../auth/client-address.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { originAllowed } from "../auth/origin.ts";
import { clearSessionCookie, sessionToken, setSessionCookie } from "../auth/session-cookie.ts";
import { signInWithPassword } from "../auth/sign-in.ts";
import { endWebSession, findWebUser } from "../auth/web-sessions.ts";
import { AppError, forbidden, unauthorized } from "../errors.ts";
import { LoginSchema } from "./auth.schema.ts";
import { validate } from "./validate.ts";

/** `/api/auth`: password sign-in for people in the browser, who they are, and sign-out. */
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
authRoutes.use(async function checkBrowserOrigin(c, next) {
  const origin = c.req.header("Origin");
  if (c.req.method === "POST" && origin !== undefined && !originAllowed(origin, c.req.url, c.var.config.allowedOrigins)) {
    throw forbidden(`Sign-in from origin '${origin.slice(0, 100)}' is not allowed.`);
  }
  await next();
});

authRoutes.post("/login", validate("json", LoginSchema), async (c) => {
  const { username, password } = c.req.valid("json");
  const address = clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader });
  const { user, token } = await signInWithPassword({ db: c.var.directory.db, username, password, address });
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
