import { AppError, conflict } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { UserContext } from "../user-context.ts";
import { checkNewPassword, passwordRefused } from "./password-policy.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { countSignInAttempt, settleSuccessfulSignIn, signInSubjects } from "./sign-in-limiter.ts";

/**
 * Changes the caller's own password: the current one must be right (each try counts against the
 * sign-in limits of their username, so a borrowed session cannot guess it), the new one must pass
 * `passwordProblem`. One batch stores it, only if the stored hash is still the one checked (a
 * concurrent change wins alone), and ends every other web session of theirs; the session that
 * asked (`keepToken`) stays signed in. API keys and connected apps are not sessions and keep working.
 */
export async function changeOwnPassword({
  db,
  user,
  currentPassword,
  newPassword,
  keepToken,
  address,
}: {
  db: D1Database;
  user: UserContext;
  currentPassword: string;
  newPassword: string;
  keepToken: string;
  address: string | undefined;
}): Promise<{ endedSessions: number }> {
  const row = await db
    .prepare("SELECT username, password_hash FROM users WHERE id = ?1 AND tenant_id = ?2 AND deactivated_at IS NULL")
    .bind(user.userId, user.tenantId)
    .first<{ username: string | null; password_hash: string | null }>();
  if (!row?.username || !row.password_hash) {
    throw conflict("You have no password yet: ask your boss for a link to set one.");
  }
  const { subjects, userKeys, addressKey } = signInSubjects({ username: row.username, address });
  const verdict = await countSignInAttempt({ db, subjects });
  if (!verdict.allowed) {
    throw new AppError("rate_limited", `Too many tries. Try again in ${Math.ceil(verdict.retryAfterSeconds / 60)} minutes.`, {
      details: { retry_after_seconds: verdict.retryAfterSeconds },
    });
  }
  // 400 rather than 401: the person is signed in, and a typo must not sign them out.
  if (!(await verifyPassword(currentPassword, row.password_hash))) throw passwordRefused("current_password", "wrong_current");
  await settleSuccessfulSignIn({ db, userKeys, addressKey });
  checkNewPassword("new_password", newPassword, row.username);
  if (newPassword === currentPassword) throw passwordRefused("new_password", "unchanged");
  const [updated, ended] = await db.batch([
    db
      .prepare("UPDATE users SET password_hash = ?3 WHERE id = ?1 AND tenant_id = ?2 AND password_hash = ?4")
      .bind(user.userId, user.tenantId, await hashPassword(newPassword), row.password_hash),
    db
      .prepare(
        `DELETE FROM web_sessions WHERE user_id = ?1 AND token_hash != ?2
           AND EXISTS (SELECT 1 FROM users WHERE id = ?1 AND password_hash != ?3)`,
      )
      .bind(user.userId, await sha256Hex(keepToken), row.password_hash),
  ]);
  if ((updated?.meta.changes ?? 0) !== 1) throw conflict("Your password was changed meanwhile; sign in again with the new one.");
  return { endedSessions: ended?.meta.changes ?? 0 };
}
