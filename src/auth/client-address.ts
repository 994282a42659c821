/** Who counts as the client of a request, for the failed sign-in limits. */
export interface ClientAddressSource {
  /** The request's `CF-Connecting-IP` header, if any. */
  header: string | undefined;
  /** Whether the platform wrote that header (`TRUST_CLIENT_IP_HEADER`, set in production only). */
  trusted: boolean;
}

/**
 * The client's address, or `undefined` when none is known. Cloudflare's edge writes
 * `CF-Connecting-IP` itself, over whatever the client sent; under `wrangler dev` a client's own
 * header is passed through unchanged (Miniflare fills it in only when it is missing), and the Worker
 * sees no other trace of the connection. An address a client chose would let it dodge its limit by
 * naming a new one each time, or lock someone else out by naming theirs, so it is not used.
 *
 * @example clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader })
 */
export function clientAddress({ header, trusted }: ClientAddressSource): string | undefined {
  if (!trusted) return undefined;
  const address = header?.trim().slice(0, 64);
  return address || undefined;
}
