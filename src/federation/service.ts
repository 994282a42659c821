import type { WorkshopDb } from "../workshop-db.ts";
import { DEFAULT_LIMITS, type FetchLimits } from "./guarded-fetch.ts";

/** What the federation domain runs on, wired once per request from the bindings and configuration. */
export interface FederationService extends WorkshopDb {
  allowLocalUrls: boolean;
  /** The key that seals (`MCP_SECRETS_KEY`, or `MCP_SECRETS_KEY_NEXT` during a rotation). */
  secretsKey: string | undefined;
  /** Keys that still open what was sealed before a rotation began. */
  olderSecretsKeys: readonly string[];
  toolListTtlSeconds: number;
  /** Limits for calls; listing for a face uses `listLimits`, tighter, so a slow server never stalls it. */
  limits: Omit<FetchLimits, "allowLocal">;
  listLimits: Omit<FetchLimits, "allowLocal">;
  /**
   * The request came from a Weft's federation client (it carries `FEDERATION_HEADER`): it reaches
   * no external server in turn, so Weft instances, or one registered with its own URL, cannot call
   * each other in a loop.
   */
  relayed: boolean;
}

/** The limits: a call may take `callTimeoutMs`; listing tools while serving a face at most 4 s. */
export function federationLimits(callTimeoutMs: number): Pick<FederationService, "limits" | "listLimits"> {
  const listMs = Math.min(4_000, callTimeoutMs);
  return {
    limits: {
      ...DEFAULT_LIMITS,
      connectTimeoutMs: Math.min(DEFAULT_LIMITS.connectTimeoutMs, callTimeoutMs),
      totalTimeoutMs: callTimeoutMs,
    },
    listLimits: { ...DEFAULT_LIMITS, connectTimeoutMs: Math.min(3_000, listMs), totalTimeoutMs: listMs },
  };
}
