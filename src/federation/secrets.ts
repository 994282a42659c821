import { AppError } from "../errors.ts";

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-GCM key derived from the `MCP_SECRETS_KEY` secret (any long random string), once per isolate. */
function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(secret))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(secret, key);
  }
  return key;
}

function requireSecret(secret: string | undefined): string {
  if (!secret) throw new AppError("unavailable", "Header secrets cannot be stored or used: MCP_SECRETS_KEY is not configured.");
  return secret;
}

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/**
 * Encrypts a JSON value (a server's header values, its OAuth tokens). `binding` (the row's tenant
 * and id) is authenticated with the ciphertext, so a sealed value copied to another row or
 * workshop does not open.
 *
 * @example await sealJson({ secret, value: { Authorization: "Bearer x" }, binding: "t-1/srv-1" })
 */
export async function sealJson({
  secret,
  value,
  binding,
}: {
  secret: string | undefined;
  value: unknown;
  binding: string;
}): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(binding) },
    await keyFor(requireSecret(secret)),
    new TextEncoder().encode(JSON.stringify(value)),
  );
  return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

/**
 * Decrypts what `sealJson` produced for the same binding, with `secret` or, while the key is being
 * rotated, one of the `older` keys; a wrong key or binding is an error, never a guess.
 */
export async function openJson({
  secret,
  older = [],
  sealed,
  binding,
}: {
  secret: string | undefined;
  older?: readonly string[] | undefined;
  sealed: string;
  binding: string;
}): Promise<unknown> {
  const opened = await openWithAny({ keys: [requireSecret(secret), ...older], sealed, binding });
  if (opened === null) {
    throw new AppError(
      "unavailable",
      "This server's stored secrets cannot be read (was MCP_SECRETS_KEY changed?). Set them again.",
    );
  }
  return opened.value;
}

/**
 * The sealed value opened with the first of `keys` that opens it, and which key that was (its
 * index); `null` when none does. A value in an unknown format is an error.
 */
export async function openWithAny({
  keys,
  sealed,
  binding,
}: {
  keys: readonly string[];
  sealed: string;
  binding: string;
}): Promise<{ value: unknown; keyIndex: number } | null> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("sealed value in an unknown format");
  for (const [keyIndex, key] of keys.entries()) {
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64(iv), additionalData: new TextEncoder().encode(binding) },
        await keyFor(key),
        fromBase64(data),
      );
    } catch {
      continue;
    }
    return { value: JSON.parse(new TextDecoder().decode(plain)), keyIndex };
  }
  return null;
}

/** Header values, sealed with `sealJson`. */
export function sealHeaders({
  secret,
  headers,
  binding,
}: {
  secret: string | undefined;
  headers: Record<string, string>;
  binding: string;
}) {
  return sealJson({ secret, value: headers, binding });
}

/** Header values from `sealHeaders`, as a null-prototype object of strings. */
export async function openHeaders({
  secret,
  older,
  sealed,
  binding,
}: {
  secret: string | undefined;
  older?: readonly string[] | undefined;
  sealed: string;
  binding: string;
}) {
  const parsed = await openJson({ secret, older, sealed, binding });
  const headers: Record<string, string> = Object.create(null);
  if (parsed && typeof parsed === "object") {
    for (const [name, value] of Object.entries(parsed)) if (typeof value === "string") headers[name] = value;
  }
  return headers;
}
