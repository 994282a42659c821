import type { ConfirmBy } from "../shapes.ts";
import type { Confirming } from "../tools/tool.ts";

/**
 * What a request signed in with: a person's browser session (the cookie), an API key, or an OAuth
 * connection's token (an MCP client the person connected). A key and a connection each carry
 * their owner's `confirm_by`: who may say yes to a write prepared with them.
 */
export type Credential =
  | { kind: "session" }
  | { kind: "api_key"; keyId: string; prefix: string; confirmBy: ConfirmBy }
  | { kind: "oauth"; connectionId: string; appName: string; confirmBy: ConfirmBy };

/**
 * What a credential allows in saying yes to a prepared write, and how the audit names it. A
 * browser session is a person on Weft's own page (the chat's card, the confirm page): `weft`.
 */
export function confirmingOf(credential: Credential): Confirming {
  switch (credential.kind) {
    case "session":
      return { by: "weft", credential: null, credentialId: "session" };
    case "api_key":
      return { by: credential.confirmBy, credential: credential.prefix, credentialId: `key:${credential.keyId}` };
    case "oauth":
      return { by: credential.confirmBy, credential: credential.appName, credentialId: `oauth:${credential.connectionId}` };
  }
}
