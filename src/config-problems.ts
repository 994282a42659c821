// What makes a deployment's configuration unusable, named setting by setting: read once per
// isolate with the configuration (src/config.ts), answered by /healthz and every route, and checked
// by `npm run deploy` before it deploys. A problem names a setting and never shows its value.

/** A setting that is missing or in a form Weft cannot use, and what to do about it. */
export interface ConfigProblem {
  /** The setting's name, e.g. `PUBLIC_URL`. */
  name: string;
  /** What is wrong with it, in a sentence that never quotes a secret's value. */
  problem: string;
}

/** Thrown by `readConfig` when any setting is missing or malformed: every problem at once. */
export class Misconfigured extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    super(`Weft is misconfigured: ${problems.map((p) => `${p.name}: ${p.problem}`).join("; ")}`);
    this.name = "Misconfigured";
    this.problems = problems;
  }
}

/** The least length of `MCP_SECRETS_KEY`: `openssl rand -base64 32` gives 44 characters. */
export const SECRETS_KEY_MIN_LENGTH = 32;

/**
 * What is wrong with a secrets key (`MCP_SECRETS_KEY` or `MCP_SECRETS_KEY_NEXT`), or null. Any long
 * random string works (it is hashed into an AES key); a short one is guessable, and whitespace is
 * almost always a copy-and-paste accident that a second copy would not repeat.
 */
export function secretsKeyProblem(value: string): string | null {
  if (/\s/.test(value)) return "contains whitespace (a copy-and-paste accident?): set it again without";
  if (value.length < SECRETS_KEY_MIN_LENGTH) {
    return `is too short (${value.length} characters, at least ${SECRETS_KEY_MIN_LENGTH}): make one with openssl rand -base64 32`;
  }
  return null;
}

/** A host name as `ALLOWED_HOSTS` lists it: a DNS name or an IP literal, without scheme, port or path. */
const HOST_NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)$/;

/** The entries of `ALLOWED_HOSTS` that are not host names (`https://x`, `x:443`, `x/y`, `*.x`). */
export function malformedHosts(hosts: readonly string[]): string[] {
  return hosts.filter((host) => !HOST_NAME.test(host));
}

/**
 * What production needs of the settings that have local defaults: a secrets key, the public
 * address OAuth tokens are bound to and links point at, and the hosts served, that address's among
 * them. Given as read; a malformed `PUBLIC_URL` is reported by the schema, not again here.
 */
export function productionProblems({
  secretsKey,
  publicUrlText,
  publicUrl,
  allowedHosts,
}: {
  secretsKey: string | undefined;
  /** `PUBLIC_URL` as set. */
  publicUrlText: string;
  /** The origin it names, when it is well-formed. */
  publicUrl: string | undefined;
  allowedHosts: readonly string[];
}): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (!secretsKey) {
    problems.push({
      name: "MCP_SECRETS_KEY",
      problem:
        "is not set: external servers' header secrets and OAuth tokens, and confirmations in MCP clients, need it (npm run deploy sets one)",
    });
  }
  if (publicUrlText === "") {
    problems.push({
      name: "PUBLIC_URL",
      problem:
        "is not set: OAuth tokens for /mcp are bound to it and links people are sent point at it; set it to the https origin people use (npm run deploy sets it)",
    });
  }
  if (allowedHosts.length === 0) {
    problems.push({
      name: "ALLOWED_HOSTS",
      problem: "is empty, so no request would be served: list the host names this Worker is reached by (npm run deploy sets it)",
    });
  } else if (publicUrl !== undefined && !allowedHosts.includes(new URL(publicUrl).hostname)) {
    problems.push({
      name: "ALLOWED_HOSTS",
      problem: `does not list ${new URL(publicUrl).hostname}, the host of PUBLIC_URL, where MCP clients and browsers are sent: add it`,
    });
  }
  return problems;
}
