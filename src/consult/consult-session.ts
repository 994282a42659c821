import { DurableObject } from "cloudflare:workers";

/** One guided consultation. Its behaviour lands with the consultations issue (#3). */
export class ConsultSession extends DurableObject<Env> {}
