import type { AuthLimiter, LimitRule } from "./auth-limiter.ts";

/**
 * Dynamic client registrations (`POST /oauth/register`) allowed per window: per client address
 * (`clientAddress`), and from everyone together. Each registration stores a client, so without a
 * limit anyone could fill the storage; a connector registers once per person and app, so a real
 * client never comes near either. Clients that name themselves by a metadata document do not
 * register at all.
 */
export const REGISTRATION_LIMITS = {
  address: { limit: 20, windowSeconds: 3600 },
  everyone: { limit: 1000, windowSeconds: 3600 },
} as const satisfies Record<string, LimitRule>;

/**
 * What a registration counts against, by the limiter object's name: its address when known, and
 * always everyone's. Without an address (`wrangler dev`, where the client could choose one) only
 * the shared count holds.
 */
export function registrationSubjects(address: string | undefined): { name: string; rule: LimitRule }[] {
  const everyone = { name: "register:everyone", rule: REGISTRATION_LIMITS.everyone };
  return address ? [{ name: `register:${address}`, rule: REGISTRATION_LIMITS.address }, everyone] : [everyone];
}

/**
 * Counts one registration (the limiter counts any event against its window, here a registration
 * rather than a failure). Returns the OAuth error response (RFC 6749's `temporarily_unavailable`,
 * with 429 and `Retry-After`) once a subject is over its limit, else null. A browser client reads
 * it as it reads the library's own answers: its `Origin` allowed, `Retry-After` exposed.
 */
export async function limitRegistration({
  limiters,
  address,
  origin,
}: {
  limiters: DurableObjectNamespace<AuthLimiter>;
  address: string | undefined;
  origin: string | null;
}): Promise<Response | null> {
  const verdicts = await Promise.all(
    registrationSubjects(address).map(({ name, rule }) => limiters.get(limiters.idFromName(name)).recordFailure(rule)),
  );
  const wait = Math.max(0, ...verdicts.filter((v) => v.blocked).map((v) => v.retryAfterSeconds));
  if (wait === 0) return null;
  const headers = new Headers({ "Retry-After": String(wait), "Cache-Control": "no-store" });
  if (origin) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Expose-Headers", "Retry-After");
    headers.set("Vary", "Origin");
  }
  return Response.json(
    { error: "temporarily_unavailable", error_description: `Too many client registrations; try again in ${wait} s.` },
    { status: 429, headers },
  );
}
