import { AppError, unauthorized } from "../errors.ts";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "./passwords.ts";
import { countSignInAttempt, SIGN_IN_LIMITS, settleSuccessfulSignIn } from "./sign-in-limiter.ts";
import { createWebSession, findUserByUsername, type WebUser } from "./web-sessions.ts";

const BAD_CREDENTIALS = "Wrong username or password.";

/**
 * Checks a username and password under the sign-in limits and starts a session: the one sign-in
 * behind the browser UI (`/api/auth/login`) and the OAuth authorize page. Throws `rate_limited`
 * (with `retry_after_seconds`) past the limits and `unauthorized` for wrong credentials, never
 * saying which part was wrong.
 *
 * @example const { user, token } = await signInWithPassword({ db, username, password, address })
 */
export async function signInWithPassword({
  db,
  username,
  password,
  address,
}: {
  db: D1Database;
  username: string;
  password: string;
  address: string;
}): Promise<{ user: WebUser; token: string }> {
  const name = username.toLowerCase();
  const userKey = `user:${name}`;
  // Its own prefix, address first: `user:<name>@<address>` would be the global key of a username
  // spelt "<name>@<address>", whose guesser could then use up the owner's count at their address.
  const userAtAddressKey = `user-at:${address}|${name}`;
  const addressKey = `addr:${address}`;
  const verdict = await countSignInAttempt({
    db,
    subjects: [
      { key: userAtAddressKey, limit: SIGN_IN_LIMITS.perUsernameAndAddress },
      { key: userKey, limit: SIGN_IN_LIMITS.perUsername },
      { key: addressKey, limit: SIGN_IN_LIMITS.perAddress },
    ],
  });
  if (!verdict.allowed) {
    throw new AppError(
      "rate_limited",
      `Too many sign-in attempts. Try again in ${Math.ceil(verdict.retryAfterSeconds / 60)} minutes.`,
      { details: { retry_after_seconds: verdict.retryAfterSeconds } },
    );
  }
  const found = await findUserByUsername({ db, username: name });
  // An unknown username costs the same hashing as a known one, so timing does not tell them apart.
  const ok = await verifyPassword(password, found?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!found?.password_hash || !ok) throw unauthorized(BAD_CREDENTIALS);
  const { password_hash: _, ...user } = found;
  const token = await createWebSession({ db, user });
  await settleSuccessfulSignIn({ db, userKeys: [userAtAddressKey, userKey], addressKey });
  return { user, token };
}
