import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { notFound } from "../errors.ts";
import { iconSvg, isIconName } from "../tools/tool-icons.ts";

/**
 * `GET /icons/{family}.svg`: a family of tools' icon, the address `tools/list` and the chat's tool
 * cards give. Public (a client fetches it without a key) and the same for every workshop.
 */
export function icon(c: Context<AppEnv>) {
  const name = /^([a-z]{1,20})\.svg$/.exec(c.req.param("file") ?? "")?.[1];
  if (!name || !isIconName(name)) throw notFound("No such icon.");
  return c.body(iconSvg(name), 200, {
    "Content-Type": "image/svg+xml",
    "Cache-Control": "public, max-age=86400",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
  });
}
