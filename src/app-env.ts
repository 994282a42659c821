import type { Credential } from "./auth/credential.ts";
import type { Directory } from "./auth/directory.ts";
import type { Operator } from "./auth/operator-keys.ts";
import type { Config } from "./config.ts";
import type { Services } from "./services.ts";
import type { UserContext } from "./user-context.ts";

/** Hono's type parameters for this app: the Worker bindings and what middleware puts on `c.var`. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
    /** Workshops, people and credentials: what authentication reads (set for every request). */
    directory: Directory;
    /** The caller's workshop's services, set by authentication (`bearerAuth`) and only after it. */
    services: Services;
    user: UserContext;
    /** What the request signed in with (set with `user`). */
    credential: Credential;
    /** The deployment's operator, on the admin routes only (`operatorAuth`); never with `user` or `services`. */
    operator: Operator;
  };
}
