import { app } from "./app.ts";
import { serveWithOAuth } from "./auth/oauth-server.ts";
import { refuseAtTheDoor } from "./auth/origin.ts";
import { type Config, configFor } from "./config.ts";
import { Misconfigured } from "./config-problems.ts";
import { misconfigured } from "./routes/health.ts";
import { directoryFor } from "./services.ts";

export { PendingActionObject as PendingAction } from "./actions/pending-action.ts";
export { AuthLimiter } from "./auth/auth-limiter.ts";
export { ConsultSession } from "./consult/consult-session.ts";
export { IngestionWorkflow } from "./jobs/ingestion-workflow.ts";
export { LocalVectorIndex } from "./search/local-vector-index.ts";

/**
 * The Worker: the Hono app, with Weft's OAuth authorization server for `/mcp` in front of it, and
 * in front of both the Host and Origin check every request passes. A deployment whose settings are
 * missing or malformed answers every request, `/healthz` included and on any host, with 503
 * `misconfigured` naming them, and serves nothing else.
 */
export default {
  fetch(request, env, ctx) {
    let config: Config;
    try {
      config = configFor(env);
    } catch (error) {
      if (error instanceof Misconfigured) return misconfigured(request, error.problems);
      throw error;
    }
    return refuseAtTheDoor(request, config) ?? serveWithOAuth(request, env, ctx, app, config, directoryFor(env));
  },
} satisfies ExportedHandler<Env>;
