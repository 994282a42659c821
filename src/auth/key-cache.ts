import type { ConfirmBy } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";

/** How long a verified key is trusted without asking D1 again: the bound on a revocation's delay. */
export const KEY_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 1000;

export type VerifiedKey = UserContext & {
  keyId: string;
  /** The key's visible prefix, as lists and the audit show it. */
  prefix: string;
  /** Who may say yes to a write prepared with the key (its owner's `confirm_by`). */
  confirmBy: ConfirmBy;
};

interface Entry {
  key: VerifiedKey;
  expiresAt: number;
}

/**
 * Verified API keys, remembered per isolate by their hash so that most requests need no D1
 * lookup. An entry lives `ttlMs`, so a key revoked elsewhere stops working here within that bound
 * (and at once in the isolate that revoked it). Only successes are cached: a key created a moment
 * ago must work at once. The clock is a parameter so tests can move time without sleeping.
 */
export class KeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly ttlMs: number;
  readonly #now: () => number;

  constructor(ttlMs: number = KEY_CACHE_TTL_MS, now: () => number = () => Date.now()) {
    this.ttlMs = ttlMs;
    this.#now = now;
  }

  /** The caller a key hash stands for, if verified less than `ttlMs` ago. */
  get(hash: string): VerifiedKey | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry.key;
  }

  /** Remembers a verified key; the oldest entry makes room when the cache is full. */
  set(hash: string, key: VerifiedKey): void {
    this.#entries.delete(hash);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(hash, { key, expiresAt: this.#now() + this.ttlMs });
  }

  /** Forgets a key by its id (on revocation, or a change of what it may do), so this isolate reads it again at once. */
  forget(keyId: string): void {
    for (const [hash, entry] of this.#entries) if (entry.key.keyId === keyId) this.#entries.delete(hash);
  }

  /** Forgets every key of a person (deactivated, or given another role), so this isolate reads them again at once. */
  forgetUser(userId: string): void {
    for (const [hash, entry] of this.#entries) if (entry.key.userId === userId) this.#entries.delete(hash);
  }

  /** Forgets every key of a workshop (when it is deleted), so this isolate refuses them at once. */
  forgetTenant(tenantId: string): void {
    for (const [hash, entry] of this.#entries) if (entry.key.tenantId === tenantId) this.#entries.delete(hash);
  }
}

/** The isolate's cache, shared by every request it serves. */
export const apiKeyCache = new KeyCache();
