import type { PasswordLinkView, PersonView } from "../../src/shapes.ts";
import { browserCall, ORIGIN } from "../chat/sign-in.ts";
import { call, callJson } from "../helpers.ts";

// The people routes as the tests call them: a boss's key adds people, a link's token sets a
// password as the set-password page does, and a person signs in as the browser does.

const json = (method: string, body: unknown) => ({ method, body: JSON.stringify(body) });

let counter = 0;
/** A username nobody in the test database has yet. */
export const freshUsername = (prefix = "person") => `${prefix}${Date.now().toString(36)}${++counter}`;

/** Adds a person with `key` (a boss's, say); the answer as JSON with its status. */
export function addPerson(key: string, person: Record<string, unknown>) {
  return callJson("/api/people", { key, ...json("POST", person) });
}

/** Adds a person who must be added: their view and, without a password, their link's token. */
export async function addedPerson(
  key: string,
  person: Record<string, unknown>,
): Promise<{ person: PersonView; link?: PasswordLinkView; token?: string }> {
  const { status, body, text } = await addPerson(key, person);
  if (status !== 201) throw new Error(`adding a person failed: ${status} ${text}`);
  const link = body.set_password_link as PasswordLinkView | undefined;
  return { person: body.person as PersonView, link, token: link ? tokenOf(link.url) : undefined };
}

/** The token a set-password link carries in its fragment. */
export function tokenOf(url: string): string {
  const token = /#token=([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

/** Changes a person with `key`. */
export function patchPerson(key: string, id: string, changes: Record<string, unknown>) {
  return callJson(`/api/people/${encodeURIComponent(id)}`, { key, ...json("PATCH", changes) });
}

/** Sets a password through a link's token, from `address`, as the set-password page does. */
export function setPassword(token: string, password: string, address = crypto.randomUUID()) {
  return callJson("/api/auth/set-password", {
    headers: { Origin: ORIGIN, "CF-Connecting-IP": address },
    ...json("POST", { token, password }),
  });
}

/** Signs in as the browser does; the response, with the cookie to send afterwards when it worked. */
export async function login(username: string, password: string, address = crypto.randomUUID()) {
  const res = await call("/api/auth/login", {
    headers: { Origin: ORIGIN, "CF-Connecting-IP": address },
    ...json("POST", { username, password }),
  });
  return { res, cookie: (res.headers.get("Set-Cookie") ?? "").split(";")[0] as string };
}

/** A key the signed-in person makes for themselves in their settings. */
export async function ownKey(cookie: string): Promise<string> {
  const res = await browserCall("/api/keys", cookie, json("POST", { name: "mine" }));
  if (res.status !== 201) throw new Error(`creating a key failed: ${res.status} ${await res.text()}`);
  return (await res.json<{ key: string }>()).key;
}
