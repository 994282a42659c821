import { env } from "cloudflare:test";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

/** The bytes of a file of test/files, made by third-party tools (test/files/make.ts). */
export function fileBytes(name: string): Uint8Array {
  const base64 = env.TEST_FILES[name];
  if (base64 === undefined) throw new Error(`no test file ${name}`);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Uploads a file as a browser does (multipart), as the boss; `async` asks for the job whatever its size. */
export function uploadFile(
  kbId: string,
  name: string,
  { bytes = fileBytes(name), async = false, key = keys.boss }: { bytes?: Uint8Array; async?: boolean; key?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  return call(`/api/knowledge-bases/${kbId}/documents`, {
    method: "POST",
    key,
    body: form,
    headers: async ? { Prefer: "respond-async" } : {},
  });
}
