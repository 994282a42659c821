import { z } from "zod";
import { ownRecord, printableName } from "../validation.ts";

// Headers Weft sets itself, or that would change how the request is framed or routed.
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "content-type",
  "transfer-encoding",
  "connection",
  "upgrade",
  "te",
  "trailer",
  "keep-alive",
  "accept",
  "accept-encoding",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "x-weft-federation",
]);
const MAX_HEADERS = 20;

const HeaderNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, "a header name is 1-64 token characters")
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()) && !/^(proxy-|__proto__$|constructor$|prototype$)/i.test(name), {
    message: "this header is set by Weft and cannot be configured",
  });
const HeaderValueSchema = z
  .string()
  .max(4096)
  .regex(/^[^\r\n\0]*$/, "a header value cannot contain line breaks");

/** Headers as a name → value record, under the limits every header set obeys. */
function headerRecord<V extends z.ZodType>(value: V) {
  return ownRecord(HeaderNameSchema, value)
    .refine((headers) => Object.keys(headers).length <= MAX_HEADERS, { message: `at most ${MAX_HEADERS} headers` })
    .refine((headers) => new Set(Object.keys(headers).map((n) => n.toLowerCase())).size === Object.keys(headers).length, {
      message: "a header name appears twice (names are case-insensitive)",
    });
}

const HeadersSchema = headerRecord(HeaderValueSchema).describe(
  "Headers sent to the server, e.g. { Authorization: 'Bearer ...' }. Write-only: never shown again.",
);

const NameSchema = z
  .string()
  .superRefine(printableName)
  .regex(/^[a-z0-9_-]{1,32}$/, "1-32 characters of a-z, 0-9, _ and -")
  .describe("Unique in the workshop; tools are served as mcp_{name}_{tool}.");
const UrlSchema = z.string().min(1).max(2048).describe("The server's Streamable HTTP (or SSE) endpoint, https.");

export const CreateServerSchema = z.strictObject({
  name: NameSchema,
  url: UrlSchema,
  headers: HeadersSchema.optional(),
  enabled: z.boolean().default(true).describe("Whether the workshop's chat uses the server's tools."),
  expose_on_mcp: z.boolean().default(false).describe("Whether /mcp re-exposes the server's tools."),
  auth: z
    .enum(["headers", "oauth"])
    .default("headers")
    .describe("'oauth' for servers that follow the MCP authorization spec: the answer carries a sign-in link."),
});
export type CreateServer = z.infer<typeof CreateServerSchema>;

export const UpdateServerSchema = z
  .strictObject({
    name: NameSchema.optional(),
    url: UrlSchema.optional(),
    headers: headerRecord(HeaderValueSchema.nullable())
      .nullable()
      .optional()
      .describe("Replaces every header; a header whose value is null keeps its stored value; null removes them all."),
    enabled: z.boolean().optional(),
    expose_on_mcp: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "nothing to change" });
export type UpdateServer = z.infer<typeof UpdateServerSchema>;

/** Flat JSON arguments for a proxied call: an object, checked against the tool's schema later. */
export const ProxyArgumentsSchema = ownRecord(z.string(), z.unknown());
