import { AppError } from "../errors.ts";
import type { AuthLimiter, LimitRule } from "./auth-limiter.ts";

/**
 * Failed authentications allowed per window before 429: per client address (`clientAddress`, so
 * several people behind one office router share it) and per key prefix (a runaway script
 * repeating a revoked key, or guesses at one known prefix).
 */
export const FAILED_AUTH_LIMITS = {
  address: { limit: 30, windowSeconds: 300 },
  keyPrefix: { limit: 10, windowSeconds: 300 },
} as const satisfies Record<string, LimitRule>;

const MAX_REMEMBERED = 10_000;

// Addresses this isolate has been told are blocked, and until when (ms). Checking here costs no
// round trip, so requests with good keys never wait on the limiter.
const blockedUntil = new Map<string, number>();

/** One thing failures are counted against. `block` says whether it is refused before its key is even checked. */
export interface Subject {
  name: string;
  rule: LimitRule;
  block: boolean;
}

/** The subjects a request's failures count against: its address (when known) and its key prefix. */
export function subjectsOf({ address, keyPrefix }: { address: string | undefined; keyPrefix: string | undefined }): Subject[] {
  const subjects: Subject[] = [];
  if (address) subjects.push({ name: `address:${address}`, rule: FAILED_AUTH_LIMITS.address, block: true });
  // A prefix is only counted, never blocked in advance: anyone who knows a prefix could otherwise
  // lock its owner out by sending wrong keys that start the same way.
  if (keyPrefix) subjects.push({ name: `key:${keyPrefix}`, rule: FAILED_AUTH_LIMITS.keyPrefix, block: false });
  return subjects;
}

function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited", `Too many failed sign-ins; try again in ${retryAfterSeconds} s, with a valid API key.`, {
    details: { retry_after_seconds: retryAfterSeconds },
  });
}

/** Throws 429 if this isolate knows that one of `subjects` is blocked; costs no round trip. */
export function refuseIfBlocked(subjects: Subject[], now = Date.now()): void {
  for (const subject of subjects) {
    if (!subject.block) continue;
    const until = blockedUntil.get(subject.name);
    if (until === undefined) continue;
    if (until > now) throw rateLimited(Math.ceil((until - now) / 1000));
    blockedUntil.delete(subject.name);
  }
}

function remember(name: string, until: number, now: number): void {
  if (blockedUntil.size >= MAX_REMEMBERED) {
    for (const [key, value] of blockedUntil) if (value <= now) blockedUntil.delete(key);
    if (blockedUntil.size >= MAX_REMEMBERED) blockedUntil.clear();
  }
  blockedUntil.set(name, until);
}

/**
 * Counts a failed authentication against each subject in its limiter object. Returns 429's error
 * when any of them is over its limit (the caller throws it instead of 401), else null.
 */
export async function recordFailedAuth({
  limiters,
  subjects,
}: {
  limiters: DurableObjectNamespace<AuthLimiter>;
  subjects: Subject[];
}): Promise<AppError | null> {
  const verdicts = await Promise.all(
    subjects.map((subject) => limiters.get(limiters.idFromName(subject.name)).recordFailure(subject.rule)),
  );
  const now = Date.now();
  let wait = 0;
  verdicts.forEach((verdict, index) => {
    const subject = subjects[index] as Subject;
    if (!verdict.blocked) return;
    wait = Math.max(wait, verdict.retryAfterSeconds);
    if (subject.block) remember(subject.name, now + verdict.retryAfterSeconds * 1000, now);
  });
  return wait > 0 ? rateLimited(wait) : null;
}
