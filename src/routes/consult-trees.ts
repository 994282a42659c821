import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { deleteTree, listTrees, saveTree } from "../consult/tree-store.ts";
import { validateTreeFile } from "../consult/validate-tree.ts";
import { AppError, forbidden, notFound } from "../errors.ts";
import { UploadTreeSchema } from "./consult-trees.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/consult/trees`: the decision trees a workshop's consultations run on, the shipped ones
 * and its own. Anyone lists them; an admin uploads (the same files as `knowledge/trees/`) and
 * deletes their workshop's own, never another workshop's or a shipped one. An invalid tree is
 * refused whole.
 */
export const consultTreeRoutes = new Hono<AppEnv>();

consultTreeRoutes.use(bearerAuth());

consultTreeRoutes.get("/", async (c) => c.json({ trees: await listTrees(c.var.services.consult) }));

consultTreeRoutes.put("/", requirePermission("trees:write"), validate("json", UploadTreeSchema), async (c) => {
  const { file_name, content } = c.req.valid("json");
  const report = await validateTreeFile(file_name, content);
  if (!report.tree) {
    const reserved = report.reserved.length > 0;
    throw new AppError(
      reserved ? "reserved_name" : "invalid_tree",
      `The tree in ${file_name} is ${reserved ? "refused" : "invalid"}: ${report.errors.join("; ")}`,
      { details: { errors: report.errors } },
    );
  }
  await saveTree({
    ...c.var.services.consult,
    tree: report.tree,
    fileName: file_name,
    warnings: report.warnings,
  });
  return c.json({
    id: report.tree.id,
    title: report.tree.title,
    version: report.tree.version,
    scope: "workshop",
    warnings: report.warnings,
  });
});

consultTreeRoutes.delete("/:id", requirePermission("trees:write"), async (c) => {
  const id = c.req.param("id");
  const outcome = await deleteTree({ ...c.var.services.consult, id });
  if (outcome === "shipped") {
    throw forbidden(
      `'${id}' is a shipped tree, shared by every workshop, and cannot be deleted; upload a tree with the same id to replace it for your workshop.`,
    );
  }
  if (outcome === "missing") throw notFound(`No tree '${id.slice(0, 100)}' in your workshop.`);
  return c.json({ id, deleted: true });
});
