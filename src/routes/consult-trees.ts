import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requireRole } from "../auth/middleware.ts";
import { deleteTree, listTrees, saveTree } from "../consult/tree-store.ts";
import { validateTreeFile } from "../consult/validate-tree.ts";
import { AppError, notFound } from "../errors.ts";
import { UploadTreeSchema } from "./consult-trees.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/consult/trees`: the decision trees consultations run on. Anyone may list them; an admin
 * uploads (the same files as `knowledge/trees/`) and deletes. An invalid tree is refused whole.
 */
export const consultTreeRoutes = new Hono<AppEnv>();

consultTreeRoutes.use(bearerAuth());

consultTreeRoutes.get("/", async (c) => c.json({ trees: await listTrees({ db: c.env.DB }) }));

consultTreeRoutes.put("/", requireRole("admin"), validate("json", UploadTreeSchema), async (c) => {
  const { file_name, content } = c.req.valid("json");
  const report = await validateTreeFile(file_name, content);
  if (!report.tree) {
    throw new AppError("invalid_tree", `The tree in ${file_name} is invalid: ${report.errors.join("; ")}`, {
      details: { errors: report.errors },
    });
  }
  await saveTree({ db: c.env.DB, tree: report.tree, fileName: file_name, warnings: report.warnings });
  return c.json({ id: report.tree.id, title: report.tree.title, version: report.tree.version, warnings: report.warnings });
});

consultTreeRoutes.delete("/:id", requireRole("admin"), async (c) => {
  const id = c.req.param("id");
  if (!(await deleteTree({ db: c.env.DB, id }))) throw notFound(`No tree '${id}'.`);
  return c.json({ id, deleted: true });
});
