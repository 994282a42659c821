import { z } from "zod";

export const actionIdField = z.string().trim().min(1).max(128).describe("From a prepare tool.");
