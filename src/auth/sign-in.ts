import { AppError, unauthorized } from "../errors.ts";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "./passwords.ts";
import { countSignInAttempt, settleSuccessfulSignIn, signInSubjects } from "./sign-in-limiter.ts";
import { canonicalUsername } from "./usernames.ts";
import { createWebSession, findUserByUsername, type WebUser } from "./web-sessions.ts";

const BAD_CREDENTIALS = "Wrong username or password.";

/**
 * Checks a username and password under the sign-in limits and starts a session: the one sign-in
 * behind the browser UI (`/api/auth/login`) and the OAuth authorize page. Throws `rate_limited`
 * (with `retry_after_seconds`) past the limits and `unauthorized` for wrong credentials, never
 * saying which part was wrong. The username is compared in its canonical form (`Ａdmin` is
 * `admin`). A deactivated person is told so (403) only once their password was right, so the
 * answer tells a guesser nothing.
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
  /** The client's address, when one is known (`clientAddress`). */
  address: string | undefined;
}): Promise<{ user: WebUser; token: string }> {
  const name = canonicalUsername(username);
  const { subjects, userKeys, addressKey } = signInSubjects({ username: name, address });
  const verdict = await countSignInAttempt({ db, subjects });
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
  const { password_hash: _, deactivated_at, ...user } = found;
  if (deactivated_at !== null) {
    await settleSuccessfulSignIn({ db, userKeys, addressKey });
    throw new AppError("forbidden", "This account has been deactivated. Ask your boss to turn it on again.", {
      details: { reason: "deactivated" },
    });
  }
  const token = await createWebSession({ db, user });
  await settleSuccessfulSignIn({ db, userKeys, addressKey });
  return { user, token };
}
