import { app } from "./app.ts";

export { PendingActionObject as PendingAction } from "./actions/pending-action.ts";
export { AuthLimiter } from "./auth/auth-limiter.ts";
export { ConsultSession } from "./consult/consult-session.ts";
export { LocalVectorIndex } from "./search/local-vector-index.ts";

export default app;
