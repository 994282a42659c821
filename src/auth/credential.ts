/**
 * What a request signed in with: a person's browser session (the cookie), an API key with what its
 * owner allowed it, or an OAuth connection's token (an MCP client the person connected). Faces read
 * it to decide who may say yes to a prepared write: an OAuth client never confirms on its own.
 */
export type Credential =
  | { kind: "session" }
  | { kind: "api_key"; keyId: string; prefix: string; agentConfirm: boolean }
  | { kind: "oauth" };

/** Whether this credential lets an agent confirm prepared writes: a key whose owner allowed it. */
export function agentConfirmOf(credential: Credential): { keyPrefix: string } | null {
  return credential.kind === "api_key" && credential.agentConfirm ? { keyPrefix: credential.prefix } : null;
}
