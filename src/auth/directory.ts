import type { AuthLimiter } from "./auth-limiter.ts";

/**
 * What authentication runs on before anyone's workshop is known: the directory database
 * (workshops, people, API keys, web sessions, OAuth connections), the failed-sign-in limiters and
 * the OAuth provider's store.
 * The wiring builds it (`directoryFor`); nothing here holds a workshop's own data.
 */
export interface Directory {
  db: D1Database;
  limiters: DurableObjectNamespace<AuthLimiter>;
  /** The OAuth provider's store (clients, grants, hashed tokens); the provider reads it itself. */
  oauthKv: KVNamespace;
}
