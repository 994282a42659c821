import { BASE, call } from "../helpers.ts";

/** The browser's origin in tests: the Worker's own. */
export const ORIGIN = BASE;

/** Signs a demo user in and returns the `Cookie` header their browser would send afterwards. */
export async function signIn(username: string, password: string, address = crypto.randomUUID()): Promise<string> {
  const res = await call("/api/auth/login", {
    method: "POST",
    headers: { Origin: ORIGIN, "CF-Connecting-IP": address },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get("Set-Cookie") ?? "";
  return cookie.split(";")[0] as string;
}

/** A request as a signed-in browser on the Worker's own page sends it. */
export function browserCall(path: string, cookie: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Cookie", cookie);
  if (!headers.has("Origin") && init.method && init.method !== "GET") headers.set("Origin", ORIGIN);
  return call(path, { ...init, headers });
}
