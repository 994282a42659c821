/**
 * Sign-in attempts allowed in one window: per username from one address, per username from all
 * addresses, and per address. A guesser at one address is stopped after a few tries without locking
 * the account's owner out elsewhere; the wider username limit caps guessing spread over many
 * addresses, and takes that many addresses to lock an account.
 */
export const SIGN_IN_LIMITS = { perUsernameAndAddress: 5, perUsername: 50, perAddress: 20, windowSeconds: 15 * 60 } as const;

/** What one sign-in attempt is counted against, and which of those a success clears or gives back. */
export interface SignInSubjects {
  subjects: { key: string; limit: number }[];
  userKeys: string[];
  addressKey: string | undefined;
}

/**
 * The subjects of an attempt to sign in as `username` from `address` (`undefined` when no address
 * is known, see `clientAddress`). Without an address every client counts as one, `local`: the
 * per-username-and-address limit then holds for the username from anywhere, and the per-address
 * limit is left out, since on one shared address it would let anyone lock every user out.
 */
export function signInSubjects({ username, address }: { username: string; address: string | undefined }): SignInSubjects {
  const name = username.toLowerCase();
  const userKey = `user:${name}`;
  // Its own prefix, address first: `user:<name>@<address>` would be the global key of a username
  // spelt "<name>@<address>", whose guesser could then use up the owner's count at their address.
  const userAtAddressKey = `user-at:${address ?? "local"}|${name}`;
  const userSubjects = [
    { key: userAtAddressKey, limit: SIGN_IN_LIMITS.perUsernameAndAddress },
    { key: userKey, limit: SIGN_IN_LIMITS.perUsername },
  ];
  if (address === undefined) return { subjects: userSubjects, userKeys: [userAtAddressKey, userKey], addressKey: undefined };
  const addressKey = `addr:${address}`;
  return {
    subjects: [...userSubjects, { key: addressKey, limit: SIGN_IN_LIMITS.perAddress }],
    userKeys: [userAtAddressKey, userKey],
    addressKey,
  };
}

/** Whether an attempt may go ahead, and if not, how many seconds until it may. */
export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one sign-in attempt against each subject (`user:<name>`, `addr:<ip>`, …) before the password
 * is checked, atomically in one batch, so concurrent guesses each use up a slot and none slips
 * past the limit. A fresh window starts once the old one has passed. Sign-up and one-time password
 * links count their attempts the same way, under subjects of their own and their own window.
 */
export async function countSignInAttempt({
  db,
  subjects,
  now = Date.now(),
  windowSeconds = SIGN_IN_LIMITS.windowSeconds,
}: {
  db: D1Database;
  subjects: { key: string; limit: number }[];
  now?: number;
  windowSeconds?: number;
}): Promise<AttemptVerdict> {
  const nowSeconds = Math.floor(now / 1000);
  const windowStart = nowSeconds - windowSeconds;
  const results = await db.batch<{ window_started_at: number; attempts: number }>(
    subjects.map(({ key }) =>
      db
        .prepare(
          `INSERT INTO sign_in_attempts (subject, window_started_at, attempts) VALUES (?1, ?2, 1)
           ON CONFLICT (subject) DO UPDATE SET
             attempts = CASE WHEN window_started_at <= ?3 THEN 1 ELSE attempts + 1 END,
             window_started_at = CASE WHEN window_started_at <= ?3 THEN ?2 ELSE window_started_at END
           RETURNING window_started_at, attempts`,
        )
        .bind(key, nowSeconds, windowStart),
    ),
  );
  let retryAfterSeconds = 0;
  subjects.forEach(({ limit }, i) => {
    const row = results[i]?.results[0];
    if (row && row.attempts > limit) {
      retryAfterSeconds = Math.max(retryAfterSeconds, row.window_started_at + windowSeconds - nowSeconds);
    }
  });
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, retryAfterSeconds) } : { allowed: true };
}

/**
 * After a successful sign-in: forgets the username's attempts, so its owner is not locked out by
 * their own typos, and gives back the address's slot, so only failures count against an address
 * (people behind one office router sign in all day).
 */
export async function settleSuccessfulSignIn({
  db,
  userKeys,
  addressKey,
}: {
  db: D1Database;
  userKeys: string[];
  addressKey: string | undefined;
}): Promise<void> {
  await db.batch([
    ...userKeys.map((key) => db.prepare(`DELETE FROM sign_in_attempts WHERE subject = ?1`).bind(key)),
    ...(addressKey === undefined
      ? []
      : [db.prepare(`UPDATE sign_in_attempts SET attempts = attempts - 1 WHERE subject = ?1 AND attempts > 0`).bind(addressKey)]),
  ]);
}
