import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { AppError } from "../errors.ts";
import { getSynonyms, putSynonyms, resetSynonyms } from "../search/synonym-store.ts";
import { PutSynonymsSchema } from "./synonyms.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/synonyms`: the workshop's synonym groups, used by every search from the next query on.
 * Everyone reads them; a boss replaces them (PUT) or goes back to the shipped default (DELETE).
 */
export const synonymRoutes = new Hono<AppEnv>();

const MAX_BODY_BYTES = 256 * 1024;

synonymRoutes.use(bearerAuth());

synonymRoutes.get("/", async (c) => c.json(await getSynonyms({ db: c.env.DB, tenantId: c.var.user.tenantId })));

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
  async (c) => c.json(await putSynonyms({ db: c.env.DB, tenantId: c.var.user.tenantId, groups: c.req.valid("json").groups })),
);

synonymRoutes.delete("/", requirePermission("knowledge:write"), async (c) =>
  c.json(await resetSynonyms({ db: c.env.DB, tenantId: c.var.user.tenantId })),
);
