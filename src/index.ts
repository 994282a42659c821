import { app } from "./app.ts";

export { AuthLimiter } from "./auth/auth-limiter.ts";
export { PendingAction } from "./business/pending-action.ts";
export { ConsultSession } from "./consult/consult-session.ts";
export { LocalVectorIndex } from "./search/local-vector-index.ts";

export default app;
