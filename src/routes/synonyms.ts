import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { AppError } from "../errors.ts";
import { getSynonyms, putSynonyms, resetSynonyms, type SynonymSettings } from "../search/synonym-store.ts";
import { etagOf, ifMatchVersions } from "./if-match.ts";
import { PutSynonymsSchema } from "./synonyms.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/synonyms`: the workshop's synonym groups, used by every search from the next query on.
 * Everyone reads them; a boss replaces them (PUT) or goes back to the shipped default (DELETE).
 * The list carries its `version`, also as `ETag`; both writes honour `If-Match`, answering 409 with
 * the list as it stands when it has moved on (see `putSynonyms`).
 */
export const synonymRoutes = new Hono<AppEnv>();

const MAX_BODY_BYTES = 256 * 1024;

synonymRoutes.use(bearerAuth());

/** The list as JSON, with its version as `ETag`. */
function answer(c: Context<AppEnv>, settings: SynonymSettings) {
  c.header("ETag", etagOf(settings.version));
  return c.json(settings);
}

synonymRoutes.get("/", async (c) => answer(c, await getSynonyms(c.var.services.search)));

synonymRoutes.put(
  "/",
  requirePermission("knowledge:write"),
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError("payload_too_large", `A synonym list is limited to ${MAX_BODY_BYTES / 1024} KiB.`);
    },
  }),
  validate("json", PutSynonymsSchema),
  async (c) =>
    answer(
      c,
      await putSynonyms({
        ...c.var.services.search,
        groups: c.req.valid("json").groups,
        ifVersion: ifMatchVersions(c.req.header("If-Match")),
      }),
    ),
);

synonymRoutes.delete("/", requirePermission("knowledge:write"), async (c) =>
  answer(c, await resetSynonyms({ ...c.var.services.search, ifVersion: ifMatchVersions(c.req.header("If-Match")) })),
);
