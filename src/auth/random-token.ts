function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A fresh 256-bit random token, URL-safe base64 without padding (43 characters): session cookies and one-time links. */
export function randomToken(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** A fresh key: `prefix` and 32 URL-safe characters (192 bits), the prefix telling which kind of key it is. */
export function randomKey(prefix: string): string {
  return `${prefix}${base64Url(crypto.getRandomValues(new Uint8Array(24)))}`;
}
