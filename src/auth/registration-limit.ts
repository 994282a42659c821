import type { AuthLimiter, LimitRule } from "./auth-limiter.ts";

/**
 * Dynamic client registrations (`POST /oauth/register`) allowed per window: per client address
 * (`clientAddress`; an IPv6 address by its /64, which one host usually holds whole), and from
 * everyone together. Each registration stores a client, so without a limit anyone could fill the
 * storage; a connector registers once per person and app, so a real client never comes near
 * either. Clients that name themselves by a metadata document do not register at all.
 */
export const REGISTRATION_LIMITS = {
  address: { limit: 20, windowSeconds: 3600 },
  everyone: { limit: 1000, windowSeconds: 3600 },
} as const satisfies Record<string, LimitRule>;

type Limits = { address: LimitRule; everyone: LimitRule };

/** What an address counts as: itself, or for IPv6 its /64 (the first four groups). */
export function addressSubject(address: string): string {
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Counts one registration, first against its address, then, only if the address is within its
 * own limit, against everyone's: so one address can use at most its own share of the shared
 * ceiling however often it tries, and cannot exhaust it for everyone. Without a known address
 * (`wrangler dev`, where the client could choose one) only the shared count holds. Returns the
 * OAuth error response (RFC 6749's `temporarily_unavailable`, with 429 and `Retry-After`) once
 * over a limit, else null. A browser client reads it as it reads the library's own answers: its
 * `Origin` allowed, `Retry-After` exposed.
 */
export async function limitRegistration({
  limiters,
  address,
  origin,
  limits = REGISTRATION_LIMITS,
}: {
  limiters: DurableObjectNamespace<AuthLimiter>;
  address: string | undefined;
  origin: string | null;
  limits?: Limits;
}): Promise<Response | null> {
  const count = (name: string, rule: LimitRule) => limiters.get(limiters.idFromName(name)).recordFailure(rule);
  if (address) {
    const own = await count(`register:${addressSubject(address)}`, limits.address);
    if (own.blocked) return tooMany(own.retryAfterSeconds, origin);
  }
  const everyone = await count("register:everyone", limits.everyone);
  return everyone.blocked ? tooMany(everyone.retryAfterSeconds, origin) : null;
}

function tooMany(wait: number, origin: string | null): Response {
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
