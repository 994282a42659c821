import { DurableObject } from "cloudflare:workers";

/** The local stand-in for Vectorize; its search lands with the knowledge-search issue (#4). */
export class LocalVectorIndex extends DurableObject<Env> {}
