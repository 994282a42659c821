import { AppError } from "../errors.ts";
import { countSignInAttempt, settleSuccessfulSignIn } from "./sign-in-limiter.ts";

/**
 * Sign-ups allowed per hour: per client address, and from everyone together. Each one creates a
 * workshop and hashes a password, so they are counted before any work, like sign-in attempts.
 * Without a known address (`clientAddress`) only the shared count holds.
 */
export const SIGN_UP_LIMITS = { perAddress: 5, everyone: 200, windowSeconds: 60 * 60 } as const;

/**
 * Uses of one-time password links (reading one, setting a password with it) allowed per 15
 * minutes: per client address, and per link. A link's token has 256 random bits, so these bound
 * the work and a runaway client rather than guessing; a success gives the slots back.
 */
export const PASSWORD_LINK_LIMITS = { perAddress: 20, perLink: 10, windowSeconds: 15 * 60 } as const;

function rateLimited(what: string, retryAfterSeconds: number): AppError {
  return new AppError("rate_limited", `Too many ${what}. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, {
    details: { retry_after_seconds: retryAfterSeconds },
  });
}

/**
 * Counts a sign-up against its address, then, only if the address is within its own limit, against
 * everyone's (as client registrations are counted): one address can use at most its own share of
 * the shared limit however often it tries. Throws 429 `rate_limited` past a limit.
 */
export async function countSignUp({ db, address }: { db: D1Database; address: string | undefined }): Promise<void> {
  const count = async (key: string, limit: number) => {
    const verdict = await countSignInAttempt({ db, subjects: [{ key, limit }], windowSeconds: SIGN_UP_LIMITS.windowSeconds });
    if (!verdict.allowed) throw rateLimited("sign-ups", verdict.retryAfterSeconds);
  };
  if (address !== undefined) await count(`signup-addr:${address}`, SIGN_UP_LIMITS.perAddress);
  await count("signup:everyone", SIGN_UP_LIMITS.everyone);
}

/**
 * Counts a use of a password link against its address and the link (by its token's hash); throws
 * 429 past a limit. Returns what to call once the use succeeded: it forgets the link's count and
 * gives the address its slot back, so only failures add up.
 */
export async function countPasswordLinkUse({
  db,
  address,
  tokenHash,
}: {
  db: D1Database;
  address: string | undefined;
  tokenHash: string;
}): Promise<() => Promise<void>> {
  const linkKey = `pwlink:${tokenHash.slice(0, 32)}`;
  const addressKey = address === undefined ? undefined : `pwlink-addr:${address}`;
  const subjects = [
    { key: linkKey, limit: PASSWORD_LINK_LIMITS.perLink },
    ...(addressKey === undefined ? [] : [{ key: addressKey, limit: PASSWORD_LINK_LIMITS.perAddress }]),
  ];
  const verdict = await countSignInAttempt({ db, subjects, windowSeconds: PASSWORD_LINK_LIMITS.windowSeconds });
  if (!verdict.allowed) throw rateLimited("attempts with this link", verdict.retryAfterSeconds);
  return () => settleSuccessfulSignIn({ db, userKeys: [linkKey], addressKey });
}
