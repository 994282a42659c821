import { app } from "./app.ts";
import { serveWithOAuth } from "./auth/oauth-server.ts";
import { refuseAtTheDoor } from "./auth/origin.ts";
import { type Config, configFor } from "./config.ts";
import { directoryFor } from "./services.ts";

export { PendingActionObject as PendingAction } from "./actions/pending-action.ts";
export { AuthLimiter } from "./auth/auth-limiter.ts";
export { ChatStream } from "./chat/stream-log.ts";
export { ConsultSession } from "./consult/consult-session.ts";
export { IngestionWorkflow } from "./jobs/ingestion-workflow.ts";
export { LocalVectorIndex } from "./search/local-vector-index.ts";

/**
 * The Worker: the Hono app, with Weft's OAuth authorization server for `/mcp` in front of it, and
 * in front of both the Host and Origin check every request passes.
 */
export default {
  fetch(request, env, ctx) {
    let config: Config;
    try {
      config = configFor(env);
    } catch {
      // A misconfigured deployment is answered by the app, whose error handler says so as always.
      return app.fetch(request, env, ctx);
    }
    return refuseAtTheDoor(request, config) ?? serveWithOAuth(request, env, ctx, app, config, directoryFor(env));
  },
} satisfies ExportedHandler<Env>;
