import type { ConfirmBy } from "../../src/shapes.ts";
import { browserCall, signIn } from "../chat/sign-in.ts";

/**
 * A fresh API key of a demo person, set to `confirmBy` from their signed-in browser, as the
 * settings do: the secret, and the key's id.
 */
export async function keyConfirmingBy(
  login: { username: string; password: string },
  confirmBy: ConfirmBy,
): Promise<{ key: string; id: string; cookie: string }> {
  const cookie = await signIn(login.username, login.password);
  const headers = { "Content-Type": "application/json" };
  const created = await browserCall("/api/keys", cookie, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: `confirm_by ${confirmBy}` }),
  });
  if (created.status !== 201) throw new Error(`key not created: ${created.status} ${await created.text()}`);
  const { key, id } = await created.json<{ key: string; id: string }>();
  const set = await browserCall(`/api/keys/${id}`, cookie, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ confirm_by: confirmBy }),
  });
  if (set.status !== 200) throw new Error(`confirm_by not set: ${set.status} ${await set.text()}`);
  return { key, id, cookie };
}
