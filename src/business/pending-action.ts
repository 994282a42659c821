import { DurableObject } from "cloudflare:workers";

/** One prepared write awaiting confirmation; declared now so the binding exists from the start. */
export class PendingAction extends DurableObject<Env> {}
