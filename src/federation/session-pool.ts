import { sha256Hex } from "../sha256.ts";

/**
 * What a Streamable HTTP server gave for a session: plain values, which a Worker may keep across
 * requests in module memory (unlike a stream or a fetch body, which belong to the request that
 * made them). The session id is a credential of sorts: it never goes to a log or a response.
 */
export interface PooledSession {
  sessionId: string;
  protocolVersion: string;
}

/**
 * Who a session may be reused for. `caller` is the Weft user a tool call is made for, or `null`
 * for work done for the whole workshop (listing tools, a settings page's "test").
 *
 * Why the user is part of the key: a server sees the workshop's credentials whoever calls, but it
 * may keep state per session (a browser page a tool opened, a working directory, a conversation
 * the server remembers). Shared between users, one person's call could read what another left in
 * that state, and a staff member could see what a boss's confirmed write left behind. A session
 * per user costs one more handshake per user and server every few minutes, which is cheap next to
 * that. Tool lists carry no caller's state and are already shared with the whole workshop through
 * the D1 cache, so listing uses a session of the workshop's own, never one a user's calls use.
 */
export interface SessionScope {
  tenantId: string;
  serverId: string;
  caller: string | null;
}

/**
 * The pool key: the scope, the URL and a fingerprint of every credential sent (header values and
 * the OAuth access token), hashed so that no decrypted secret stays in module memory. Changed
 * headers, a new URL or a renewed token give another key, so a session is never carried over to
 * credentials it was not opened with.
 */
export function sessionKey(
  scope: SessionScope,
  { url, headers, token }: { url: string; headers: Record<string, string>; token: string | undefined },
): Promise<string> {
  const named = Object.entries(headers)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Hex(JSON.stringify([scope.tenantId, scope.serverId, scope.caller, url, named, token ?? null]));
}

/** Idle sessions kept per isolate, in all; the least recently used key goes first past it. */
const MAX_SESSIONS = 256;
/** Idle sessions kept for one key: as many as calls that ran side by side, up to this. */
const MAX_PER_KEY = 8;
/**
 * How long a session may sit unused before Weft stops reusing it. Servers expire idle sessions
 * after a delay of their own, or never; a few minutes keeps most reuses from meeting a 404, and a
 * 404 costs only a new handshake anyway.
 */
export const SESSION_IDLE_MS = 4 * 60_000;

/**
 * The longest session id the pool holds. Servers give UUIDs or hex ids well under this, signed ones
 * a few hundred characters; a hostile server could give ids of tens of kilobytes, which 256 idle
 * sessions would keep in the isolate's memory and every reuse would send again.
 */
const MAX_SESSION_ID = 1_024;
/** Streamable HTTP: a session id has only visible ASCII characters (0x21 to 0x7E). */
const SESSION_ID = /^[\x21-\x7e]+$/;

type Idle = PooledSession & { idleSince: number };

const plain = ({ sessionId, protocolVersion }: Idle): PooledSession => ({ sessionId, protocolVersion });

/**
 * Sessions not in use, per key. A contact takes one out for as long as it runs and gives it back
 * when it succeeded, so a session never carries two contacts' requests at once: each contact's
 * client numbers its JSON-RPC requests from 0, and a server matches answers to requests by that id
 * within a session. Calls made side by side each get a session of their own.
 */
export class SessionPool {
  private readonly idle = new Map<string, Idle[]>();
  private count = 0;
  private readonly limits: { maxSessions: number; maxPerKey: number; idleMs: number };

  constructor(limits = { maxSessions: MAX_SESSIONS, maxPerKey: MAX_PER_KEY, idleMs: SESSION_IDLE_MS }) {
    this.limits = limits;
  }

  /**
   * The most recently used session for `key` not yet past the idle time, taken out of the pool, and
   * the key's sessions past it, dropped (the caller may end them: they hold the key's credentials).
   */
  take(key: string, now = Date.now()): { session: PooledSession | undefined; stale: PooledSession[] } {
    const sessions = this.idle.get(key);
    if (!sessions) return { session: undefined, stale: [] };
    // Sessions are given back in time order, so the stale ones come first.
    const fresh = sessions.findIndex((idle) => now - idle.idleSince < this.limits.idleMs);
    const stale = sessions.splice(0, fresh === -1 ? sessions.length : fresh);
    const found = sessions.pop();
    this.count -= stale.length + (found ? 1 : 0);
    if (!sessions.length) this.idle.delete(key);
    return { session: found && plain(found), stale: stale.map(plain) };
  }

  /**
   * Puts a session back for the next contact with the same key. False when the key already has
   * as many idle sessions as it may keep, or the id is too long or not what the transport allows:
   * the caller ends this one instead.
   */
  give(key: string, session: PooledSession, now = Date.now()): boolean {
    if (session.sessionId.length > MAX_SESSION_ID || !SESSION_ID.test(session.sessionId)) return false;
    const sessions = this.idle.get(key) ?? [];
    if (sessions.length >= this.limits.maxPerKey) return false;
    sessions.push({ ...session, idleSince: now });
    this.count++;
    // Re-inserted last: a Map iterates in insertion order, so the first key is the least recently used.
    this.idle.delete(key);
    this.idle.set(key, sessions);
    while (this.count > this.limits.maxSessions) this.dropOldest();
    return true;
  }

  /** How many idle sessions the pool holds. */
  get size(): number {
    return this.count;
  }

  private dropOldest(): void {
    const [key, sessions] = this.idle.entries().next().value as [string, Idle[]];
    sessions.shift();
    this.count--;
    if (!sessions.length) this.idle.delete(key);
  }
}

/**
 * The isolate's pool. A session dropped from it for being idle too long is ended beside the next
 * contact with its key (see `withUpstream`), never before it. One pushed out by newer sessions of
 * other keys, or whose key is not used again, is not ended: Weft no longer holds the credentials
 * it was opened with, only their hash. The server expires it, as it does sessions of clients that
 * went away.
 */
export const sessionPool = new SessionPool();
