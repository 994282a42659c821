/**
 * What a request signed in with: a person's browser session (the cookie), or an API key with what
 * its owner allowed it. Faces read it to decide who may say yes to a prepared write.
 */
export type Credential = { kind: "session" } | { kind: "api_key"; keyId: string; prefix: string; agentConfirm: boolean };

/** Whether this credential lets an agent confirm prepared writes: a key whose owner allowed it. */
export function agentConfirmOf(credential: Credential): { keyPrefix: string } | null {
  return credential.kind === "api_key" && credential.agentConfirm ? { keyPrefix: credential.prefix } : null;
}
