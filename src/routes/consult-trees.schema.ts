import { z } from "zod";
import { MAX_TREE_BYTES } from "../consult/validate-tree.ts";

export const UploadTreeSchema = z.strictObject({
  file_name: z
    .string()
    .regex(/^[\w.-]+\.(json|ya?ml)$/i, "must end in .json, .yaml or .yml")
    .describe("The tree file's name; its ending says whether content is JSON or YAML."),
  content: z.string().min(1).max(MAX_TREE_BYTES).describe("The file's text."),
});
