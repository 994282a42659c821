import { z } from "zod";
import { printableName } from "../validation.ts";

/** Option ids with built-in meaning at every node; a tree may list `back` and `end`, never the third. */
export const BACK = "back";
export const END = "end";
export const PROVIDE_MORE_INFO = "provide_more_info";

const Id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, "use letters, digits, '_', '-' or '.'");

const OptionSchema = z.strictObject({
  id: Id,
  description: z.string().min(1),
  next_node: z.string().min(1).nullable(),
});

const NodeSchema = z.strictObject({
  title: z.string().superRefine(printableName).min(1).optional(),
  response: z.string().min(1),
  options: z.array(OptionSchema).default([]),
  triggers: z.array(z.string().min(1)).default([]),
});

/** A decision tree as authors write it in `knowledge/trees/` (JSON or YAML). */
export const TreeFileSchema = z.strictObject({
  id: Id,
  title: z.string().superRefine(printableName).min(1),
  description: z.string().default(""),
  language: z.enum(["zh", "en"]).optional(),
  root: z.string().min(1),
  triggers: z.array(z.string().min(1)).default([]),
  nodes: z.record(z.string().min(1), NodeSchema),
});

export type TreeOption = z.output<typeof OptionSchema>;
export type TreeNode = z.output<typeof NodeSchema>;

/** A validated tree with its language settled and a content version. */
export type Tree = Omit<z.output<typeof TreeFileSchema>, "language"> & { language: "zh" | "en"; version: string };
