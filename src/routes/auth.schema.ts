import { z } from "zod";

/** `POST /api/auth/login`: both fields bounded, so hashing never sees a megabyte of password. */
export const LoginSchema = z.strictObject({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
});
