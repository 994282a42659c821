import { createRequestStateCodec, type RequestStateCodec } from "@modelcontextprotocol/server";
import { sha256Hex } from "../sha256.ts";

/**
 * What a confirmation round hands the client to echo back: which action the person is asked
 * about, how (`form` answers it, `url` sends them to the confirm page), and what it is bound to:
 * the tool, a digest of its arguments, the workshop, the user and the credential (a key's or an
 * OAuth connection's id). Signed, not encrypted: the client may read it, and nothing in it is
 * secret to the person it belongs to.
 */
export interface ConfirmState {
  actionId: string;
  mode: "form" | "url";
  tool: string;
  argsDigest: string;
  tenantId: string;
  userId: string;
  credential: string;
}

// One derived key per secret and isolate: deriving costs a few WebCrypto calls.
const codecs = new Map<string, Promise<RequestStateCodec<ConfirmState>>>();

/**
 * The codec that signs and checks confirmation states, keyed by a key derived (HKDF-SHA256) from
 * the deployment's `MCP_SECRETS_KEY`, so no second secret has to be kept; states live as long as
 * the pending actions they are about. `null` without the secret: then no client is asked in-band,
 * everyone gets the confirm page's link.
 */
export function confirmStateCodec(
  secret: string | undefined,
  ttlSeconds: number,
): Promise<RequestStateCodec<ConfirmState>> | null {
  if (!secret) return null;
  const id = `${ttlSeconds}:${secret}`;
  let codec = codecs.get(id);
  if (!codec) {
    codec = deriveKey(secret).then((key) => createRequestStateCodec<ConfirmState>({ key, ttlSeconds }));
    codecs.set(id, codec);
  }
  return codec;
}

async function deriveKey(secret: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: new TextEncoder().encode("weft mcp confirm state v1") },
    material,
    256,
  );
  return new Uint8Array(bits);
}

/** A digest of a call's arguments that does not depend on the order of their keys. */
export function argumentsDigest(args: unknown): Promise<string> {
  return sha256Hex(canonicalJson(args));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
